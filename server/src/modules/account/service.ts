import {
  ACTIVITY_PAGE_SIZE,
  EMAIL_CHANGE_TTL_MS,
  type Account,
  type AccountSession,
  type ActivityItem,
} from '@portal/contracts/account';
import type { MfaEnrollStart } from '@portal/contracts/auth';
import { maskPhone, sameEmail, emailKey } from '@portal/contracts/fields';
import { maskTin } from '@portal/contracts/identifiers';
import Bowser from 'bowser';
import { and, count, desc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  auditEvents,
  mfaRecoveryCodes,
  passkeys,
  providerLocations,
  securityAnswers,
  sessions,
  userLocations,
  users,
} from '../../db/schema';
import { recordAudit, type AuditDetails } from '../../platform/audit';
import type { DbExecutor } from '../../platform/db-executor';
import { encryptSecret } from '../../platform/encryption';
import { enqueueEmail, OUTBOX_JOB } from '../../platform/mail/outbox';
import { issueRecoveryCodes } from '../../platform/mfa/recovery-codes';
import { verifyPendingTotp } from '../../platform/mfa/pending-totp';
import { groupedKey, newTotpSecret, otpauthUrl, qrSvg } from '../../platform/mfa/totp';
import { consumeOneTimeToken, issueOneTimeToken, revokeOneTimeTokens } from '../../platform/one-time-tokens';
import { setSessionPassword } from '../../platform/password-change';
import { PortalError } from '../../platform/portal-error';
import { countAttempt, retryAfterHeader } from '../../platform/rate-limit';
import { saveSecurityAnswers } from '../../platform/security-answers';
import {
  endAllSessions,
  isExpired,
  recentAuthenticationSecondsLeft,
  rotateSession,
  type LoadedSession,
} from '../../platform/session';
// The auth module's declared service: the current password is checked like a login (it counts toward the lockout).
import { verifyAccountPassword } from '../auth/service';
import { serviceContext } from '../../platform/service-context';

/** My account (docs/requirements/session.md#my-account): the profile, credentials, sessions and recent activity. */

function audit(
  request: FastifyRequest,
  db: DbExecutor,
  userId: string,
  event: { action: string; outcome: 'success' | 'failure'; details?: AuditDetails },
) {
  return recordAudit(db, { actor: userId, target: userId, ip: request.ip, requestId: request.id, ...event });
}

/** `GET /api/account` */
export async function accountProfile(request: FastifyRequest, session: LoadedSession): Promise<Account> {
  const { db } = request.server.database;
  const [user] = await db.select().from(users).where(eq(users.id, session.userId));
  if (!user) throw new PortalError(401, 'Not_Logged_In');
  const [locations, [codes], [keys], questions] = await Promise.all([
    db
      .select({
        legalName: providerLocations.legalName,
        jurisdiction: providerLocations.jurisdiction,
        lineOfBusiness: providerLocations.lineOfBusiness,
        tin: providerLocations.tin,
        role: userLocations.role,
      })
      .from(userLocations)
      .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
      .where(eq(userLocations.userId, user.id))
      .orderBy(providerLocations.legalName),
    db
      .select({ n: count() })
      .from(mfaRecoveryCodes)
      .where(and(eq(mfaRecoveryCodes.userId, user.id), isNull(mfaRecoveryCodes.usedAt))),
    db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id)),
    // The questions' keys only: an answer (even its hash) never leaves the server.
    db
      .select({ questionId: securityAnswers.questionId })
      .from(securityAnswers)
      .where(eq(securityAnswers.userId, user.id))
      .orderBy(securityAnswers.questionId),
  ]);
  return {
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneMasked: maskPhone(user.phone),
    status: user.status,
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    passwordChangedAt: user.passwordChangedAt.toISOString(),
    mfa: {
      authenticatorEnrolledAt: user.mfaEnrolledAt?.toISOString() ?? null,
      passkeyCount: keys?.n ?? 0,
      recoveryCodesLeft: codes?.n ?? 0,
    },
    locations: locations.map(({ tin, ...location }) => ({ ...location, tinMasked: maskTin(tin) })),
    securityQuestionIds: questions.map((q) => q.questionId),
    recentAuthenticationSecondsLeft: recentAuthenticationSecondsLeft(
      session,
      request.server.clock(),
      request.server.config.login.reauthenticationWindowMs,
    ),
  };
}

/**
 * `POST /api/account/password`: the current password (checked like a login), then the new one under the shared
 * policy and not one of the last passwords. Every other session of the user ends; this one stays with a new id.
 */
export async function changePassword(
  request: FastifyRequest,
  reply: FastifyReply,
  session: LoadedSession,
  input: { currentPassword: string; newPassword: string },
): Promise<number> {
  // Contractor staff: the enterprise directory owns the password (docs/requirements/session.md#my-account). Refused
  // before the current password is checked: the answer does not depend on it, and no guess is counted.
  const [account] = await request.server.database.db
    .select({ isInternal: users.isInternal })
    .from(users)
    .where(eq(users.id, session.userId));
  if (account?.isInternal) {
    await audit(request, request.server.database.db, session.userId, {
      action: 'password.change',
      outcome: 'failure',
      details: { field: 'password', reason: 'internal_account' },
    });
    throw new PortalError(400, 'Internal_User_Use_Enterprise_Directory', {
      newPassword: ['Internal_User_Use_Enterprise_Directory'],
    });
  }
  const user = await verifyAccountPassword(
    serviceContext(request),
    session.userId,
    input.currentPassword,
    'password.change',
  );
  if (!user) throw new PortalError(400, 'Current_Password_Invalid', { currentPassword: ['Current_Password_Invalid'] });
  return setSessionPassword(serviceContext(request, reply), session, user, input.newPassword);
}

/** `POST /api/account/mfa/reset` without a code: a new secret, kept (encrypted) on this session until confirmed. */
export async function startMfaReset(request: FastifyRequest, session: LoadedSession): Promise<MfaEnrollStart> {
  const { database, secrets } = request.server;
  const secret = newTotpSecret();
  await database.db.transaction(async (tx) => {
    await tx
      .update(sessions)
      .set({ pendingTotpSecretEncrypted: encryptSecret(secrets.encryptionKey, secret) })
      .where(eq(sessions.idHash, session.idHash));
    await audit(request, tx, session.userId, {
      action: 'mfa.reset_started',
      outcome: 'success',
      details: { method: 'totp' },
    });
  });
  const url = otpauthUrl(secret, session.username);
  return { otpauthUrl: url, secret: groupedKey(secret), qrSvg: await qrSvg(url) };
}

/**
 * `POST /api/account/mfa/reset` with a code from the new secret: it replaces the old authenticator, 10 new recovery
 * codes replace the old ones, the passkeys are removed, every other session ends (with every outstanding emailed link
 * or code) and the user is emailed.
 */
export async function confirmMfaReset(
  request: FastifyRequest,
  reply: FastifyReply,
  session: LoadedSession,
  code: string,
): Promise<{ recoveryCodes: string[]; otherSessionsEnded: number }> {
  const { database, secrets } = request.server;
  const { step, now, secretEncrypted } = await verifyPendingTotp(
    serviceContext(request),
    session,
    code,
    'Mfa_Reset_Not_Started',
  );
  if (step === null) {
    await audit(request, database.db, session.userId, {
      action: 'mfa.reset',
      outcome: 'failure',
      details: { method: 'totp', reason: 'wrong_code' },
    });
    throw new PortalError(400, 'Mfa_Setup_Code_Invalid', { code: ['Mfa_Setup_Code_Invalid'] });
  }
  const result = await database.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ totpSecretEncrypted: secretEncrypted, totpLastStep: step, mfaEnrolledAt: now })
      .where(eq(users.id, session.userId))
      .returning({ email: users.email, firstName: users.firstName });
    const recoveryCodes = await issueRecoveryCodes(tx, secrets.encryptionKey, session.userId);
    // Every second factor is replaced together: passkeys go with the old app and codes, so one planted by whoever
    // held the account does not survive the owner's recovery (docs/decisions/0030-passkeys-and-credential-changes.md).
    const passkeysRemoved = (
      await tx.delete(passkeys).where(eq(passkeys.userId, session.userId)).returning({ id: passkeys.id })
    ).length;
    const otherSessionsEnded = await endAllSessions(tx, session.userId, { exceptIdHash: session.idHash });
    // A new id for the changed privilege; the new row carries no pending secret.
    await rotateSession(serviceContext(request, reply), tx, {
      userId: session.userId,
      stage: 'active',
      keep: session,
      authenticatedAt: session.authenticatedAt,
    });
    if (user)
      await enqueueEmail(tx, {
        to: user.email,
        template: 'mfa-changed',
        data: { firstName: user.firstName, passkeysRemoved },
      });
    await audit(request, tx, session.userId, {
      action: 'mfa.reset',
      outcome: 'success',
      details: { method: 'totp', field: 'mfa', sessionCount: otherSessionsEnded, count: passkeysRemoved },
    });
    return { recoveryCodes, otherSessionsEnded };
  });
  request.server.jobs.kick(OUTBOX_JOB);
  return result;
}

/** Email-change requests per user and hour: each one emails two addresses, so it must not become a mail cannon. */
export const EMAIL_CHANGES_PER_HOUR = 5;

/** Another account whose address is `email` (whatever its case), if any. */
async function otherAccountWithEmail(db: DbExecutor, email: string, userId: string) {
  const [other] = await db
    .select({ id: users.id, firstName: users.firstName })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, emailKey(email)), ne(users.id, userId)))
    .limit(1);
  return other;
}

/**
 * `POST /api/account/email` (docs/requirements/session.md#my-account): the new address must be proven before it is
 * used, as at registration. A free address gets a single-use link (72 hours; it replaces any earlier one); an address
 * another account uses gets a notice instead, and the caller the same answer, so the request reveals no account. The
 * current address is told in both cases, so a hijacked session cannot move the account silently.
 */
export async function requestEmailChange(request: FastifyRequest, session: LoadedSession, email: string) {
  const { db } = request.server.database;
  const now = request.server.clock();
  const [user] = await db.select().from(users).where(eq(users.id, session.userId));
  if (!user) throw new PortalError(401, 'Not_Logged_In');
  if (sameEmail(email, user.email)) throw new PortalError(400, 'Email_Unchanged', { email: ['Email_Unchanged'] });
  const sent = await countAttempt(db, `email-change|user:${user.id}`, 60 * 60_000);
  if (sent.count > EMAIL_CHANGES_PER_HOUR) {
    await audit(request, db, user.id, {
      action: 'email.change_requested',
      outcome: 'failure',
      details: { field: 'email', reason: 'user_limit' },
    });
    throw new PortalError(429, 'Too_Many_Requests', undefined, retryAfterHeader(sent.ttlMs));
  }
  await db.transaction(async (tx) => {
    const taken = await otherAccountWithEmail(tx, email, user.id);
    if (taken) {
      // The links sent before stop working, exactly as when a new link is sent.
      await revokeOneTimeTokens(tx, { userId: user.id, purpose: 'email-change', now });
      await enqueueEmail(tx, { to: email, template: 'email-change-in-use', data: { firstName: taken.firstName } });
    } else {
      const token = await issueOneTimeToken(tx, {
        userId: user.id,
        purpose: 'email-change',
        ttlMs: EMAIL_CHANGE_TTL_MS,
        now,
        email,
      });
      await enqueueEmail(tx, { to: email, template: 'email-change-link', data: { firstName: user.firstName, token } });
    }
    await enqueueEmail(tx, { to: user.email, template: 'email-change-requested', data: { firstName: user.firstName } });
    // The outcome is the same (the user's activity list must not tell); only the reason, never shown, differs.
    await audit(request, tx, user.id, {
      action: 'email.change_requested',
      outcome: 'success',
      details: { field: 'email', ...(taken ? { reason: 'address_in_use' } : {}) },
    });
  });
  request.server.jobs.kick(OUTBOX_JOB);
}

/**
 * `POST /api/account/email/confirm`: the link's token, logged in or not (opening it proves the new address; the
 * request itself needed a recent login). The old address is told that the change happened.
 */
export async function confirmEmailChange(request: FastifyRequest, token: string): Promise<void> {
  const { db } = request.server.database;
  const now = request.server.clock();
  const outcome = await db.transaction(async (tx): Promise<{ reason: string | null; userId?: string }> => {
    const used = await consumeOneTimeToken(tx, { token, purpose: 'email-change', now });
    if (!used?.email) return { reason: 'invalid_token' };
    const [user] = await tx
      .select({ email: users.email, firstName: users.firstName })
      .from(users)
      .where(eq(users.id, used.userId));
    if (!user) return { reason: 'invalid_token' };
    // Another account took the address after the link was sent: the link is spent and changes nothing.
    if (await otherAccountWithEmail(tx, used.email, used.userId))
      return { reason: 'address_in_use', userId: used.userId };
    await tx.update(users).set({ email: used.email }).where(eq(users.id, used.userId));
    await enqueueEmail(tx, { to: user.email, template: 'email-changed', data: { firstName: user.firstName } });
    await audit(request, tx, used.userId, {
      action: 'email.changed',
      outcome: 'success',
      details: { field: 'email', method: 'email_link' },
    });
    return { reason: null };
  });
  if (outcome.reason) {
    await recordAudit(db, {
      actor: outcome.userId ?? null,
      action: 'email.changed',
      target: outcome.userId ?? null,
      outcome: 'failure',
      ip: request.ip,
      requestId: request.id,
      details: { field: 'email', method: 'email_link', reason: outcome.reason },
    });
    throw new PortalError(400, 'Email_Change_Link_Invalid');
  }
  request.server.jobs.kick(OUTBOX_JOB);
}

/** `POST /api/account/phone`: the registration's phone rule (the contracts' schema gives the 10 digits). */
export async function changePhone(request: FastifyRequest, session: LoadedSession, phone: string): Promise<string> {
  await request.server.database.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ phone })
      .where(eq(users.id, session.userId))
      .returning({ email: users.email, firstName: users.firstName });
    if (!user) throw new PortalError(401, 'Not_Logged_In');
    await enqueueEmail(tx, {
      to: user.email,
      template: 'account-details-changed',
      data: { firstName: user.firstName, change: 'phone' },
    });
    await audit(request, tx, session.userId, {
      action: 'phone.changed',
      outcome: 'success',
      details: { field: 'phone' },
    });
  });
  request.server.jobs.kick(OUTBOX_JOB);
  return maskPhone(phone)!;
}

/**
 * `POST /api/account/security-answers`: three different questions and answers replace the old ones, hashed under
 * each question's key as at registration.
 */
export async function changeSecurityAnswers(
  request: FastifyRequest,
  session: LoadedSession,
  answers: readonly { questionId: string; answer: string }[],
): Promise<void> {
  const { database, passwordHasher } = request.server;
  await database.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ email: users.email, firstName: users.firstName })
      .from(users)
      .where(eq(users.id, session.userId));
    if (!user) throw new PortalError(401, 'Not_Logged_In');
    await saveSecurityAnswers(tx, session.userId, answers, passwordHasher);
    await enqueueEmail(tx, {
      to: user.email,
      template: 'account-details-changed',
      data: { firstName: user.firstName, change: 'security-answers' },
    });
    await audit(request, tx, session.userId, {
      action: 'security_answers.changed',
      outcome: 'success',
      details: { field: 'security_answers', count: answers.length },
    });
  });
  request.server.jobs.kick(OUTBOX_JOB);
}

/** A readable browser and system from a User-Agent header, e.g. `Chrome 131 on Windows`. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name;
  const major = parsed.browser.version?.split('.')[0];
  const os = parsed.os.name;
  if (!browser) return os ? `Unknown browser on ${os}` : 'Unknown browser';
  return `${browser}${major ? ` ${major}` : ''}${os ? ` on ${os}` : ''}`;
}

/** `GET /api/account/sessions`: the user's logged-in sessions, this one first, then by last activity. */
export async function listSessions(request: FastifyRequest, session: LoadedSession): Promise<AccountSession[]> {
  const { database, clock, config } = request.server;
  const rows = await database.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, session.userId), eq(sessions.stage, 'active')))
    .orderBy(desc(sessions.lastSeenAt));
  const now = clock();
  return rows
    .filter((row) => !isExpired(row, now, config.sessions))
    .map((row) => ({
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: (row.idHash === session.idHash ? session.lastSeenAt : row.lastSeenAt).toISOString(),
      ip: row.ip,
      browser: describeBrowser(row.userAgent),
      current: row.idHash === session.idHash,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** `POST /api/account/sessions/end-others`: sign out everywhere else. */
export async function endOtherSessions(request: FastifyRequest, session: LoadedSession): Promise<number> {
  const { clock, config } = request.server;
  return request.server.database.db.transaction(async (tx) => {
    // The count the user is told is of the sessions the list showed them (logged in, not expired), so the dialog's
    // "your other session" is never followed by "2 other sessions"; half-finished logins and expired rows go too.
    const now = clock();
    const shown = (
      await tx
        .select({ idHash: sessions.idHash, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(
          and(eq(sessions.userId, session.userId), eq(sessions.stage, 'active'), ne(sessions.idHash, session.idHash)),
        )
    ).filter((row) => !isExpired(row, now, config.sessions)).length;
    await endAllSessions(tx, session.userId, { exceptIdHash: session.idHash, reason: 'sign_out_everywhere' });
    const ended = shown;
    await audit(request, tx, session.userId, {
      action: 'sessions.ended_others',
      outcome: 'success',
      details: { sessionCount: ended },
    });
    return ended;
  });
}

/** Audit actions in words; `[success, failure]`. Unknown actions fall back to a generic text. */
const ACTIVITY_TEXT: Record<string, readonly [string, string]> = {
  'login.password': ['Password accepted at login', 'Failed login'],
  'login.mfa': ['Logged in', 'Login not completed'],
  'login.failed': ['Logged in', 'Failed login attempt'],
  'login.mfa_failed': ['Second step accepted', 'Wrong code or passkey at login'],
  logout: ['Logged out', 'Logged out'],
  'account.locked': ['Account locked after failed logins', 'Account locked after failed logins'],
  'mfa.enrol_started': ['Authenticator app setup started', 'Authenticator app setup failed'],
  'mfa.enrolled': ['Authenticator app set up', 'Authenticator app setup failed'],
  'mfa.reset_started': ['Authenticator app replacement started', 'Authenticator app replacement failed'],
  'mfa.reset': [
    'Authenticator app replaced, new recovery codes issued, passkeys removed',
    'Authenticator app replacement failed',
  ],
  reauthenticate: ['Password confirmed', 'Password confirmation failed'],
  'password.change': ['Password changed', 'Password change refused (wrong current password)'],
  'password.changed': ['Password changed', 'Password change failed'],
  'passkey.added': ['Passkey added', 'Passkey could not be added'],
  'passkey.renamed': ['Passkey renamed', 'Passkey could not be renamed'],
  'passkey.removed': ['Passkey removed', 'Passkey could not be removed'],
  'sessions.ended_others': ['Signed out of all other sessions', 'Signing out of other sessions failed'],
  'tokens.revoked': [
    'Emailed links and codes, and any email address change not yet confirmed, cancelled',
    'Emailed links and codes could not be cancelled',
  ],
  'email.change_requested': ['Email address change asked for', 'Email address change refused'],
  'email.changed': ['Email address changed', 'Email address change link refused'],
  'phone.changed': ['Phone number changed', 'Phone number change failed'],
  'security_answers.changed': ['Security questions changed', 'Security questions change failed'],
  // Every other action a user's events can carry is named too: "Account activity" said nothing (issue 22).
  'account.disabled-inactive': ['Account disabled after a long time without a login', 'Account disabling failed'],
  'account.reactivation': ['Account reactivation step completed', 'Account reactivation step refused'],
  'login-help.forgot-username': ['Username reminder emailed', 'Username reminder not sent'],
  'login-help.forgot-password': ['Password reset link emailed', 'Password reset link not sent'],
  'login-help.reset-password': ['Password reset from the emailed link', 'Password reset refused'],
  'registration.submit': ['Registered as a location administrator', 'Registration refused'],
  'registration.verify-email': ['Email address confirmed', 'Email confirmation link refused'],
  'registration.verify-email.resend': ['Email confirmation link sent again', 'Email confirmation link not sent'],
  'dde.submit': ['DDE access request sent', 'DDE access request refused'],
  'dde.easi': ['DDE enrollment details viewed', 'DDE enrollment details refused'],
};

const METHOD_TEXT: Record<string, string> = {
  totp: 'with an authenticator code',
  passkey: 'with a passkey',
  recovery_code: 'with a recovery code',
};

/** An audit event in words. Only the action, outcome and method are read: never the other details. */
export function describeActivity(action: string, outcome: 'success' | 'failure', method?: unknown): string {
  const text = ACTIVITY_TEXT[action]?.[outcome === 'success' ? 0 : 1];
  if (!text) return outcome === 'success' ? 'Account activity' : 'Account activity (failed)';
  if (action === 'login.mfa' && outcome === 'success' && typeof method === 'string' && METHOD_TEXT[method])
    return `${text} ${METHOD_TEXT[method]}`;
  return text;
}

/** `GET /api/account/activity`: the user's audit events (as actor or target), newest first, a page at a time. */
export async function accountActivity(
  request: FastifyRequest,
  userId: string,
  page: number,
): Promise<{ items: ActivityItem[]; page: number; pageSize: number; hasMore: boolean }> {
  const rows = await request.server.database.db
    .select({
      at: auditEvents.at,
      action: auditEvents.action,
      outcome: auditEvents.outcome,
      ip: auditEvents.ip,
      details: auditEvents.details,
    })
    .from(auditEvents)
    .where(or(eq(auditEvents.actor, userId), eq(auditEvents.target, userId)))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(ACTIVITY_PAGE_SIZE + 1)
    .offset((page - 1) * ACTIVITY_PAGE_SIZE);
  const items = rows.slice(0, ACTIVITY_PAGE_SIZE).map((row) => ({
    at: row.at.toISOString(),
    action: row.action,
    description: describeActivity(row.action, row.outcome, row.details?.method),
    outcome: row.outcome,
    ip: row.ip,
  }));
  return { items, page, pageSize: ACTIVITY_PAGE_SIZE, hasMore: rows.length > ACTIVITY_PAGE_SIZE };
}
