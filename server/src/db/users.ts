import { emailKey } from '@portal/contracts/fields';
import { and, eq, ne, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { preparedStatement, type DbExecutor } from '../platform/db-executor';
import { auditEvents, users } from './schema';

/**
 * The one data layer for finding users (docs/architecture.md#server-modules). Usernames and email addresses are
 * unique and matched whatever their case: the indexes `users_username_lower_key` and `users_email_lower_idx` are on
 * `lower(…)`, so every lookup goes through these functions and uses them.
 */

export type User = typeof users.$inferSelect;

/** The columns a list of people shows (the administrator's and the help desk's): who, how reached, and the status. */
export const personSummaryColumns = {
  userId: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  username: users.username,
  email: users.email,
  status: users.status,
};

/** The key a typed username is matched by: surrounding spaces and case do not matter. */
export function usernameKey(username: string): string {
  return username.trim().toLowerCase();
}

/** `lower(username) = key`: the condition the unique index answers (`key`: a `usernameKey`, or its placeholder). */
function usernameKeyIs(key: string | Placeholder): SQL {
  return eq(sql`lower(${users.username})`, key);
}

/** The account named `username`, whatever its case. */
export function usernameIs(username: string): SQL {
  return usernameKeyIs(usernameKey(username));
}

/** `lower(email) = key` (ASCII case only: see `emailKey`): the condition the email index answers. */
export function emailIs(email: string): SQL {
  return eq(sql`lower(${users.email})`, emailKey(email));
}

/** The account whose username this is, whatever its case. */
export async function userByUsername(db: DbExecutor, username: string): Promise<User | undefined> {
  // Every login's first statement: prepared (docs/decisions/0062).
  const statement = preparedStatement(db, 'user_by_username', (name) =>
    db
      .select()
      .from(users)
      .where(usernameKeyIs(sql.placeholder('key')))
      .limit(1)
      .prepare(name),
  );
  const [user] = await statement.execute({ key: usernameKey(username) });
  return user;
}

/** Whether any account has this username. */
export async function usernameTaken(db: DbExecutor, username: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(usernameIs(username)).limit(1);
  return rows.length > 0;
}

/** The accounts with this email address (several may share one: an office's shared mailbox), oldest first. */
export function usersByEmail(
  db: DbExecutor,
  email: string,
  options: { except?: string; status?: User['status'] } = {},
) {
  const conditions = [emailIs(email)];
  if (options.except) conditions.push(ne(users.id, options.except));
  if (options.status) conditions.push(eq(users.status, options.status));
  return db
    .select()
    .from(users)
    .where(and(...conditions))
    .orderBy(users.createdAt);
}

/** The account with this id. */
export async function userById(db: DbExecutor, id: string): Promise<User | undefined> {
  // The second factor's first statement: prepared (docs/decisions/0062).
  const statement = preparedStatement(db, 'user_by_id', (name) =>
    db
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1)
      .prepare(name),
  );
  const [user] = await statement.execute({ id });
  return user;
}

/**
 * Makes a confirmed authenticator secret the account's own (first enrolment and an authenticator reset): the secret,
 * the time step of the code that confirmed it (so that code cannot be replayed) and the enrolment time. Recovery
 * codes, sessions and passkeys are the caller's to handle in the same transaction.
 */
export async function adoptTotpSecret(
  tx: DbExecutor,
  userId: string,
  adopted: { secretEncrypted: string; step: number; now: Date },
): Promise<Pick<User, 'email' | 'firstName'>> {
  const [user] = await tx
    .update(users)
    .set({ totpSecretEncrypted: adopted.secretEncrypted, totpLastStep: adopted.step, mfaEnrolledAt: adopted.now })
    .where(eq(users.id, userId))
    .returning({ email: users.email, firstName: users.firstName });
  if (!user) throw new Error(`no user ${userId}`);
  return user;
}

/** The window of the daily ceiling on wrong passwords (docs/requirements/session.md#lockout). */
const DAILY_FAILURE_WINDOW_MS = 86_400_000;

/**
 * The wrong passwords given for the account in the 24 hours before `now`, whatever lock or administrator's unlock came
 * between: the audit events every counted failure writes (`reason: wrong_password`; the login, re-authentication and
 * password change count alike). The daily ceiling (`LOGIN_DAILY_FAILURE_CEILING`) is judged on it.
 */
export async function wrongPasswordsToday(db: DbExecutor, userId: string, now: Date): Promise<number> {
  const since = new Date(now.getTime() - DAILY_FAILURE_WINDOW_MS).toISOString();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.target, userId),
        eq(auditEvents.outcome, 'failure'),
        sql`${auditEvents.at} > ${since}::timestamptz`,
        sql`${auditEvents.details}->>'reason' = 'wrong_password'`,
      ),
    );
  return row?.n ?? 0;
}
