import { macJurisdictions, type MacJurisdiction } from '@portal/contracts/jurisdictions';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accessRequests, providerLocations, userLocations, users } from '../../db/schema';
import { userByUsername } from '../../db/users';
import { encryptSecret } from '../../platform/encryption';
import type { PasswordHasher } from '../../platform/password-hashing';
import { rememberPassword } from '../../identity/passwords/history';
import { hashSecurityAnswer } from '../../identity/security-answers';
import { securityAnswers } from '../../db/schema';

/**
 * Demo accounts (README "Demo accounts"), created with the demo data outside production. Their password and the
 * enrolled account's TOTP secret are public, which is why production never seeds them unless told to.
 */
export const DEMO_PASSWORD = 'Harbor lantern quartz meadow';

/**
 * Every demo account's security questions (stable keys of questions the CMS seed creates, cms/src/seed/content.js)
 * and their answer, for the login-help flows.
 */
export const DEMO_SECURITY_QUESTION_KEYS = ['first-car', 'first-school', 'childhood-nickname'] as const;
export const DEMO_SECURITY_ANSWER = 'blue';

/** Base32 TOTP secrets of the demo accounts enrolled in MFA from the start (`npm run demo:totp -- <username>`). */
export const DEMO_TOTP_SECRETS: Readonly<Record<string, string>> = {
  'demo.admin.j5': 'DEMOPORTALJ5ADMINTOTPSECRET23456',
};

/** A new account has one password in its history; trimming to the setting's maximum keeps it whatever the setting. */
const PASSWORD_HISTORY_KEPT = 24;

type UserStatus = (typeof users.$inferInsert)['status'];

interface DemoAccount {
  username: string;
  firstName: string;
  lastName: string;
  status: UserStatus;
  location?: {
    jurisdiction: MacJurisdiction;
    role: 'administrator' | 'user';
    /** Which demo location of the jurisdiction (by NPI): 0, the first, unless told. */
    index?: number;
    /**
     * Days until the link's recertification date (negative: overdue, and suspended as the job would have done it),
     * set when the link is created (docs/requirements/staff-accounts.md#demo-data). Default: RECERTIFICATION_DAYS.
     */
    certifiedInDays?: number;
  };
  /** An end user with a pending access request for the jurisdiction's first demo location (no link yet). */
  requests?: MacJurisdiction;
}

export function demoAccounts(): DemoAccount[] {
  const accounts: DemoAccount[] = [];
  for (const jurisdiction of macJurisdictions) {
    const j = jurisdiction.toLowerCase();
    accounts.push(
      {
        username: `demo.admin.${j}`,
        firstName: 'Avery',
        lastName: `Admin ${jurisdiction}`,
        status: 'active',
        location: { jurisdiction, role: 'administrator' },
      },
      {
        username: `demo.user.${j}`,
        firstName: 'Jordan',
        lastName: `User ${jurisdiction}`,
        status: 'active',
        location: { jurisdiction, role: 'user' },
      },
    );
  }
  const first = macJurisdictions[0]!;
  accounts.push(
    {
      username: 'demo.locked',
      firstName: 'Lee',
      lastName: 'Locked',
      status: 'locked',
      location: { jurisdiction: first, role: 'user' },
    },
    {
      username: 'demo.inactive',
      firstName: 'Ira',
      lastName: 'Inactive',
      status: 'disabled_inactive',
      location: { jurisdiction: first, role: 'user' },
    },
    // End users waiting for demo.admin.j5's approval (docs/requirements/staff-accounts.md#demo-data).
    { username: 'demo.wait.1', firstName: 'Riley', lastName: 'Requester', status: 'active', requests: first },
    { username: 'demo.wait.2', firstName: 'Morgan', lastName: 'Requester', status: 'active', requests: first },
    // Annual recertification: one link due in 10 days on demo.admin.j5's location, and another demo administrator
    // (of a second J8 location, so demo.admin.j8 is not held on the recertification screen) with one overdue.
    {
      username: 'demo.user.due',
      firstName: 'Dale',
      lastName: 'Due',
      status: 'active',
      location: { jurisdiction: first, role: 'user', certifiedInDays: 10 },
    },
    {
      username: 'demo.admin.recert',
      firstName: 'Remy',
      lastName: 'Recertifier',
      status: 'active',
      location: { jurisdiction: 'J8', role: 'administrator', index: 1 },
    },
    {
      username: 'demo.user.overdue',
      firstName: 'Owen',
      lastName: 'Overdue',
      status: 'active',
      location: { jurisdiction: 'J8', role: 'user', index: 1, certifiedInDays: -1 },
    },
  );
  return accounts;
}

/** The `index`th demo location of a jurisdiction (by NPI, so the same one on every install with the same seed). */
async function nthLocation(db: Db, jurisdiction: MacJurisdiction, index = 0): Promise<string | undefined> {
  const [row] = await db
    .select({ id: providerLocations.id })
    .from(providerLocations)
    .where(eq(providerLocations.jurisdiction, jurisdiction))
    .orderBy(asc(providerLocations.npi), asc(providerLocations.ptan))
    .offset(index)
    .limit(1);
  return row?.id;
}

async function hasAccessRequest(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: accessRequests.id })
    .from(accessRequests)
    .where(eq(accessRequests.userId, userId))
    .limit(1);
  return rows.length > 0;
}

/**
 * Creates the missing demo accounts and their location links. Runs at every start with demo data on: an existing
 * account is left as it is (its password, lockout or MFA state may have changed since), a lost link is restored
 * (e.g. after `npm run seed -- --reset`).
 */
export async function seedDemoAccounts(
  db: Db,
  hasher: PasswordHasher,
  encryptionKey: string,
  now: Date = new Date(),
): Promise<number> {
  let created = 0;
  let demoAnswerHash: Promise<string> | undefined;
  // One hash of the (public) demo password for every account created now: start-up pays for one, not one per account.
  let demoPasswordHash: Promise<string> | undefined;
  for (const account of demoAccounts()) {
    let user: { id: string } | undefined = await userByUsername(db, account.username);
    if (!user) {
      demoPasswordHash ??= hasher.hash(DEMO_PASSWORD);
      const passwordHash = await demoPasswordHash;
      // One hash for every demo answer (the same public answer): start-up pays for one hash, not one per answer.
      demoAnswerHash ??= hashSecurityAnswer(DEMO_SECURITY_ANSWER, hasher);
      const answerHash = await demoAnswerHash;
      const secret = DEMO_TOTP_SECRETS[account.username];
      const inserted = await db.transaction(async (tx) => {
        const rows = await tx
          .insert(users)
          .values({
            username: account.username,
            email: `${account.username}@example.com`,
            firstName: account.firstName,
            lastName: account.lastName,
            dob: '1980-01-01',
            passwordHash,
            status: account.status,
            ...(secret ? { totpSecretEncrypted: encryptSecret(encryptionKey, secret), mfaEnrolledAt: now } : {}),
          })
          .onConflictDoNothing()
          .returning({ id: users.id });
        if (rows[0]) {
          await rememberPassword(tx, rows[0].id, passwordHash, PASSWORD_HISTORY_KEPT);
          await tx
            .insert(securityAnswers)
            .values(DEMO_SECURITY_QUESTION_KEYS.map((questionId) => ({ userId: rows[0]!.id, questionId, answerHash })));
        }
        return rows[0];
      });
      if (!inserted) continue; // another instance created it at the same moment
      user = inserted;
      created++;
    }
    if (account.requests) {
      const requested = await nthLocation(db, account.requests);
      // Once per account: a request withdrawn or decided since is left as it is (the index allows one pending).
      if (requested && !(await hasAccessRequest(db, user.id)))
        await db.insert(accessRequests).values({ userId: user.id, locationId: requested }).onConflictDoNothing();
    }
    if (!account.location) continue;
    const { jurisdiction, role, index, certifiedInDays } = account.location;
    const locationId = await nthLocation(db, jurisdiction, index);
    const certification =
      certifiedInDays === undefined
        ? {}
        : {
            certifiedUntil: new Date(now.getTime() + certifiedInDays * 24 * 60 * 60 * 1000),
            ...(certifiedInDays <= 0 ? { status: 'suspended' } : {}),
          };
    if (locationId)
      await db
        .insert(userLocations)
        .values({ userId: user.id, locationId, role, ...certification })
        .onConflictDoNothing();
  }
  return created;
}
