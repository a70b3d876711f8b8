import { sql } from 'drizzle-orm';
import { linesOfBusiness, macJurisdictions } from '@portal/contracts/jurisdictions';
import { ddeAccessTypes, ddeRequestTypes, ediEnrollmentStatuses } from '@portal/contracts/dde-access';
import { feedKinds, feedModes } from '@portal/contracts/data-feeds';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

/** docs/requirements/portal.md#data-model. All times are stored in UTC (timestamptz). */
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

// From packages/contracts/src/jurisdictions.json; a new value there needs a migration (npm run db:generate).
export const jurisdictionEnum = pgEnum('jurisdiction', macJurisdictions);
export const lineOfBusinessEnum = pgEnum('line_of_business', linesOfBusiness);
export const locationStatusEnum = pgEnum('location_status', ['active', 'inactive']);
export const userStatusEnum = pgEnum('user_status', [
  'pending',
  'active',
  'locked',
  'disabled_inactive',
  'disabled_admin',
]);
export const locationRoleEnum = pgEnum('location_role', ['administrator', 'user']);
export const sessionStageEnum = pgEnum('session_stage', ['mfa', 'mfa-enroll', 'password-change', 'active']);
export const outcomeEnum = pgEnum('audit_outcome', ['success', 'failure']);

export const providerLocations = pgTable(
  'provider_locations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    npi: varchar('npi', { length: 10 }).notNull(),
    ptan: varchar('ptan', { length: 10 }).notNull(),
    tin: varchar('tin', { length: 9 }).notNull(),
    legalName: text('legal_name').notNull(),
    jurisdiction: jurisdictionEnum('jurisdiction').notNull(),
    lineOfBusiness: lineOfBusinessEnum('line_of_business').notNull(),
    state: varchar('state', { length: 2 }).notNull(),
    addressLine1: text('address_line1').notNull(),
    city: text('city').notNull(),
    zip: varchar('zip', { length: 10 }).notNull(),
    status: locationStatusEnum('status').notNull().default('active'),
    /**
     * Set when no administrator of the location is certified any more: its people's access is suspended until the
     * contractor's help desk restores it (docs/requirements/staff-accounts.md#annual-recertification).
     */
    accessSuspendedAt: timestamp('access_suspended_at', { withTimezone: true }),
    /** PECOS enrollment facts, when the provider-enrollment feed carries them (docs/requirements/data-feeds.md). */
    pecosAsctCntlId: varchar('pecos_asct_cntl_id', { length: 10 }),
    enrollmentId: varchar('enrollment_id', { length: 15 }),
    providerTypeCode: varchar('provider_type_code', { length: 10 }),
    effectiveDate: date('effective_date', { mode: 'string' }),
    /**
     * The day the location ended (end-dated by the feed or missing from a snapshot): from that day it cannot be
     * validated, has no find-admin answer and takes no DDE request; its people keep their accounts.
     */
    endDate: date('end_date', { mode: 'string' }),
    /** The import run that last changed the row (import_runs.id); null for rows made otherwise. */
    importRunId: bigint('import_run_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('provider_locations_npi_ptan_lob_key').on(t.npi, t.ptan, t.lineOfBusiness),
    index('provider_locations_npi_idx').on(t.npi),
    index('provider_locations_ptan_idx').on(sql`upper(${t.ptan})`),
  ],
);

export const claims = pgTable(
  'claims',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    locationId: uuid('location_id')
      .notNull()
      .references(() => providerLocations.id, { onDelete: 'cascade' }),
    claimNumber: varchar('claim_number', { length: 23 }).notNull(),
    patientMbi: varchar('patient_mbi', { length: 11 }).notNull(),
    dateOfService: date('date_of_service', { mode: 'string' }).notNull(),
    paidAmount: numeric('paid_amount', { precision: 12, scale: 2 }).notNull(),
    paidDate: date('paid_date', { mode: 'string' }).notNull(),
    checkNumber: varchar('check_number', { length: 20 }).notNull(),
    /** The import run that last changed the row (import_runs.id); null for rows made otherwise. */
    importRunId: bigint('import_run_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('claims_claim_number_key').on(t.claimNumber),
    index('claims_location_paid_idx').on(t.locationId, t.paidDate),
    index('claims_check_number_idx').on(t.checkNumber),
  ],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: varchar('username', { length: 64 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: varchar('phone', { length: 20 }),
    dob: date('dob', { mode: 'string' }).notNull(),
    passwordHash: text('password_hash').notNull(),
    status: userStatusEnum('status').notNull().default('pending'),
    /** AES-GCM ciphertext of the TOTP secret (ENCRYPTION_KEY), never the plain secret. */
    totpSecretEncrypted: text('totp_secret_encrypted'),
    /** The last TOTP time step accepted: a code is accepted once (docs/requirements/session.md#mfa). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** When the authenticator was confirmed; null = the next login enrols one. */
    mfaEnrolledAt: timestamp('mfa_enrolled_at', { withTimezone: true }),
    failedLoginCount: integer('failed_login_count').notNull().default(0),
    /** The first of the current run of failed logins: the lockout counts failures within a window from it. */
    failedLoginFirstAt: timestamp('failed_login_first_at', { withTimezone: true }),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /**
     * Wrong second factors (TOTP, recovery codes, passkeys) since the last accepted one, across logins: the account
     * locks at MFA_ACCOUNT_MAX_FAILURES (docs/requirements/session.md#lockout, docs/decisions/0029).
     */
    mfaFailedCount: integer('mfa_failed_count').notNull().default(0),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /**
     * When a location administrator last re-enabled the account (docs/requirements/staff-accounts.md): the inactivity
     * limit counts from it too, so a re-enabled account is not disabled again before its owner could log in.
     */
    reenabledAt: timestamp('reenabled_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    // Usernames are unique whatever their case (docs/requirements/portal.md#data-model).
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    index('users_email_lower_idx').on(sql`lower(${t.email})`),
    // The help desk's one-box search matches prefixes (docs/requirements/help-desk.md): `text_pattern_ops` lets a
    // `like 'abc%'` use the index whatever the database's collation.
    index('users_username_prefix_idx').on(sql`lower(${t.username}) text_pattern_ops`),
    index('users_email_prefix_idx').on(sql`lower(${t.email}) text_pattern_ops`),
    index('users_last_name_prefix_idx').on(sql`lower(${t.lastName}) text_pattern_ops`),
    index('users_first_name_prefix_idx').on(sql`lower(${t.firstName}) text_pattern_ops`),
    index('users_full_name_prefix_idx').on(sql`lower(${t.firstName} || ' ' || ${t.lastName}) text_pattern_ops`),
  ],
);

export const userLocations = pgTable(
  'user_locations',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    locationId: uuid('location_id')
      .notNull()
      .references(() => providerLocations.id, { onDelete: 'cascade' }),
    role: locationRoleEnum('role').notNull(),
    /** `active`, or `suspended` when not recertified by `certified_until` (docs/requirements/staff-accounts.md). */
    status: varchar('status', { length: 16 }).notNull().default('active'),
    createdAt: createdAt(),
    /**
     * The annual recertification's due date: RECERTIFICATION_DAYS after the approval or the last recertification
     * (docs/requirements/staff-accounts.md#annual-recertification). Rows older than the column get a year from the
     * migration.
     */
    certifiedUntil: timestamp('certified_until', { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '365 days'`),
    /** Who approved or last recertified the link (null: self-registered administrator, or the account is gone). */
    certifiedBy: uuid('certified_by').references(() => users.id, { onDelete: 'set null' }),
    /** The smallest reminder threshold (45, 30, 15, 7, 1 days) already sent for this `certified_until`; null: none. */
    reminderDaysSent: integer('reminder_days_sent'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.locationId] }),
    index('user_locations_location_idx').on(t.locationId, t.role),
    // The reminder and suspension jobs read the links falling due, not every link.
    index('user_locations_certified_until_idx').on(t.certifiedUntil),
  ],
);

export const accessRequestStatusEnum = pgEnum('access_request_status', ['pending', 'approved', 'denied', 'withdrawn']);

/**
 * A person's request for access to a provider location, decided by an administrator of that location
 * (docs/requirements/staff-accounts.md). At most one pending request per person and location.
 */
export const accessRequests = pgTable(
  'access_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    locationId: uuid('location_id')
      .notNull()
      .references(() => providerLocations.id, { onDelete: 'cascade' }),
    status: accessRequestStatusEnum('status').notNull().default('pending'),
    /** The role granted, chosen by the approver (null until approved). */
    role: locationRoleEnum('role'),
    /** The approver's or denier's optional reason, shown to the requester. */
    reason: text('reason'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** When the location's administrators were told of it (the 5-minute batch); null: not yet. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('access_requests_pending_key')
      .on(t.userId, t.locationId)
      .where(sql`${t.status} = 'pending'`),
    // The console's list: a location's requests by status, newest first.
    index('access_requests_location_status_idx').on(t.locationId, t.status, t.createdAt),
    index('access_requests_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * An administrator's invitation of a person (by email) to one of their locations with a role. The token travels in
 * the link's URL fragment; only its SHA-256 is stored. It lives 7 days and works once.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    locationId: uuid('location_id')
      .notNull()
      .references(() => providerLocations.id, { onDelete: 'cascade' }),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    email: varchar('email', { length: 254 }).notNull(),
    role: locationRoleEnum('role').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    usedBy: uuid('used_by').references(() => users.id, { onDelete: 'set null' }),
    /** When an administrator withdrew it before it was used: the link stops working. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_key').on(t.tokenHash),
    index('invitations_location_idx').on(t.locationId, t.createdAt),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the session id; the id itself only ever lives in the browser's cookie. */
    idHash: varchar('id_hash', { length: 64 }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The absolute limit: the session ends then whatever the activity. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: varchar('ip', { length: 45 }),
    userAgent: text('user_agent'),
    /**
     * `mfa` / `mfa-enroll`: the password was accepted and the session grants nothing but the second-factor step;
     * `active`: logged in (docs/requirements/session.md#server-sessions).
     */
    stage: sessionStageEnum('stage').notNull().default('active'),
    /** When both factors were given (null before): the re-authentication window counts from here. */
    authenticatedAt: timestamp('authenticated_at', { withTimezone: true }),
    /** A TOTP secret offered during enrolment, encrypted like the user's, until a code confirms it. */
    pendingTotpSecretEncrypted: text('pending_totp_secret_encrypted'),
    /** Wrong codes in this pending login; too many end it. */
    mfaFailures: integer('mfa_failures').notNull().default(0),
    /**
     * The open WebAuthn challenge (docs/decisions/0023): kept here so any instance verifies the answer; taken (set to
     * null) by the first verification, so it works once, and refused after `webauthnChallengeExpiresAt`.
     */
    webauthnChallenge: varchar('webauthn_challenge', { length: 128 }),
    webauthnChallengePurpose: varchar('webauthn_challenge_purpose', { length: 16 }).$type<'registration' | 'login'>(),
    webauthnChallengeExpiresAt: timestamp('webauthn_challenge_expires_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * One-time recovery codes of a user's authenticator, as keyed hashes (docs/decisions/0020). Other second factors
 * (passkeys) get their own table keyed by user; a login's session records which step it waits for, not which method.
 */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('mfa_recovery_codes_user_hash_key').on(t.userId, t.codeHash)],
);

/** A user's passkeys (WebAuthn credentials): a second factor besides the authenticator app (docs/decisions/0023). */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id as the browser reports it (base64url). */
    credentialId: varchar('credential_id', { length: 1024 }).notNull(),
    /** The COSE public key (base64url): not a secret, but only this server's checks need it. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter: a later assertion with a lower non-zero value is a cloned key. */
    signCount: bigint('sign_count', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    /** Chosen by the user (e.g. "Work laptop"). */
    name: text('name').notNull(),
    /** Synced between devices (multi-device credential) rather than bound to one. */
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_id_key').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actor: text('actor'),
    action: varchar('action', { length: 64 }).notNull(),
    target: text('target'),
    outcome: outcomeEnum('outcome').notNull(),
    ip: varchar('ip', { length: 45 }),
    requestId: varchar('request_id', { length: 64 }),
    /** Extra facts; never a password, answer, DOB, SSN or full TIN (docs/requirements/portal.md#rate-limits-and-audit). */
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at),
    index('audit_events_actor_idx').on(t.actor),
    // My account's activity reads a user's events as actor or as target (e.g. failed logins by someone else).
    index('audit_events_target_idx').on(t.target),
  ],
);

export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipient: varchar('recipient', { length: 254 }).notNull(),
    template: varchar('template', { length: 64 }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    /** Backoff: a failed delivery is retried no sooner than this. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('outbox_unsent_idx')
      .on(t.createdAt)
      .where(sql`${t.sentAt} is null`),
  ],
);

/** Rate-limit counters shared by every instance (docs/decisions/0017): one row per key and window. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: varchar('key', { length: 200 }).primaryKey(),
    count: integer('count').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_expires_idx').on(t.expiresAt)],
);

/** Earlier password hashes of a user, so a recent password is not chosen again. */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('password_history_user_idx').on(t.userId, t.createdAt)],
);

/** Marks one-off work done at first start (demo data), so a restart never repeats it. */
export const appState = pgTable('app_state', {
  key: varchar('key', { length: 64 }).primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A user's three security answers (docs/requirements/portal.md#validation-rules): the question is the CMS security
 * question's stable `key`; the answer is stored as an argon2id hash of its normalised form.
 */
export const securityAnswers = pgTable(
  'security_answers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    questionId: varchar('question_id', { length: 64 }).notNull(),
    answerHash: text('answer_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.questionId] })],
);

export const oneTimeTokenPurposeEnum = pgEnum('one_time_token_purpose', [
  'email-verify',
  'password-reset',
  'reactivation',
  'registration',
  'email-change',
]);

/**
 * Single-use tokens sent by email or handed between steps; only the SHA-256 of each token is stored. A token belongs
 * to a user, or (registration, before the user exists) to a provider location: exactly one of the two.
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    locationId: uuid('location_id').references(() => providerLocations.id, { onDelete: 'cascade' }),
    purpose: oneTimeTokenPurposeEnum('purpose').notNull(),
    /** The address the token was sent to, when opening it proves that address (email-change): it becomes the user's. */
    email: varchar('email', { length: 254 }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Wrong guesses of a short code (a purpose with a per-user attempt limit). */
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('one_time_tokens_hash_key').on(t.tokenHash),
    index('one_time_tokens_user_purpose_idx').on(t.userId, t.purpose),
    index('one_time_tokens_location_purpose_idx').on(t.locationId, t.purpose),
    check('one_time_tokens_owner_check', sql`(${t.userId} is null) <> (${t.locationId} is null)`),
  ],
);

// From packages/contracts/src/login-help.ts; a new value there needs a migration (npm run db:generate).
export const ddeAccessTypeEnum = pgEnum('dde_access_type', ddeAccessTypes);
export const ediEnrollmentStatusEnum = pgEnum('edi_enrollment_status', ediEnrollmentStatuses);
export const ddeRequestTypeEnum = pgEnum('dde_request_type', ddeRequestTypes);

/** A location's EDI/DDE enrollment facts ("EASI"), which pre-fill the DDE access request (one per location). */
export const ediEnrollments = pgTable('edi_enrollments', {
  locationId: uuid('location_id')
    .primaryKey()
    .references(() => providerLocations.id, { onDelete: 'cascade' }),
  submitterId: varchar('submitter_id', { length: 15 }).notNull(),
  networkServiceVendor: text('network_service_vendor').notNull(),
  ddeAccessType: ddeAccessTypeEnum('dde_access_type').notNull(),
  status: ediEnrollmentStatusEnum('status').notNull(),
  /** Set when a snapshot of the EDI-enrollment feed no longer lists it: it then pre-fills nothing. */
  endDate: date('end_date', { mode: 'string' }),
  importRunId: bigint('import_run_id', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// From packages/contracts/src/data-feeds.ts; a new value there needs a migration (npm run db:generate).
export const importKindEnum = pgEnum('import_kind', feedKinds);
export const importModeEnum = pgEnum('import_mode', feedModes);
export const importOutcomeEnum = pgEnum('import_outcome', [
  'running',
  'succeeded',
  'refused',
  'failed',
  'dry-run',
  'interrupted',
]);

/**
 * One row per import of a data-feed file (docs/requirements/data-feeds.md): its SHA-256 makes a second import of the
 * same file answer "already imported"; the counts and outcome are the run's summary.
 */
export const importRuns = pgTable(
  'import_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: importKindEnum('kind').notNull(),
    mode: importModeEnum('mode').notNull(),
    fileName: text('file_name').notNull(),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    format: varchar('format', { length: 8 }).notNull().default('csv'),
    rowsRead: integer('rows_read').notNull().default(0),
    rowsInserted: integer('rows_inserted').notNull().default(0),
    rowsUpdated: integer('rows_updated').notNull().default(0),
    rowsEndDated: integer('rows_end_dated').notNull().default(0),
    rowsRejected: integer('rows_rejected').notNull().default(0),
    outcome: importOutcomeEnum('outcome').notNull().default('running'),
    /** Why a run was refused or failed, in words (never a row's personal data). */
    message: text('message'),
    forced: boolean('forced').notNull().default(false),
    /** Who started it: `command`, `job` (the drop folder) or `demo`. */
    startedBy: varchar('started_by', { length: 16 }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('import_runs_kind_sha256_idx').on(t.kind, t.sha256), index('import_runs_started_idx').on(t.startedAt)],
);

/** Numbers the DDE requests' reference numbers (`DDE-2026-000123`): shared by every instance, never reused. */
export const ddeRequestNumberSeq = pgSequence('dde_request_number_seq', { startWith: 1 });

/**
 * DDE access requests. `(requester_id, idempotency_key)` is unique: a retry of the same form finds the first row
 * instead of adding one; `request_hash` tells a retry from a different request sent with the same key.
 */
export const ddeRequests = pgTable(
  'dde_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    referenceNumber: varchar('reference_number', { length: 32 }).notNull(),
    requesterId: uuid('requester_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    locationId: uuid('location_id')
      .notNull()
      .references(() => providerLocations.id, { onDelete: 'cascade' }),
    idempotencyKey: uuid('idempotency_key').notNull(),
    requestHash: varchar('request_hash', { length: 64 }).notNull(),
    requestType: ddeRequestTypeEnum('request_type').notNull(),
    /** The form's values as submitted (submitter id, vendor, access type, contact phone, comments). */
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    status: varchar('status', { length: 16 }).notNull().default('received'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('dde_requests_reference_key').on(t.referenceNumber),
    uniqueIndex('dde_requests_idempotency_key').on(t.requesterId, t.idempotencyKey),
    index('dde_requests_location_idx').on(t.locationId),
  ],
);

/**
 * Contractor staff known from the enterprise directory (docs/requirements/help-desk.md): never a password. One row per
 * directory subject, written at each sign-in with the name, email and roles the directory gave then.
 */
export const operators = pgTable(
  'operators',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    issuer: text('issuer').notNull(),
    /** The directory's `sub`. */
    subject: text('subject').notNull(),
    name: text('name').notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    /** `help_desk`, `supervisor` (from the group claim at the last sign-in or re-check). */
    roles: jsonb('roles').$type<string[]>().notNull(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('operators_issuer_subject_key').on(t.issuer, t.subject)],
);

/**
 * The console's sessions, apart from provider sessions: the browser holds a random id (cookie `ops_session`, path
 * `/api/ops`), the table its SHA-256, and the directory's tokens encrypted (ENCRYPTION_KEY) for the role re-check.
 */
export const opsSessions = pgTable(
  'ops_sessions',
  {
    idHash: varchar('id_hash', { length: 64 }).primaryKey(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When the directory last confirmed the person and their role (sign-in, then each re-check). */
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
    accessTokenEncrypted: text('access_token_encrypted'),
    refreshTokenEncrypted: text('refresh_token_encrypted'),
    /** For the directory's end-session request (`id_token_hint`). */
    idTokenEncrypted: text('id_token_encrypted'),
  },
  (t) => [index('ops_sessions_operator_idx').on(t.operatorId), index('ops_sessions_expires_idx').on(t.expiresAt)],
);
