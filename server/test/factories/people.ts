import type { FastifyInstance } from 'fastify';
import { users } from '../../src/db/schema';
import type { User } from '../../src/db/users';
import { rememberPassword } from '../../src/identity/passwords/history';
import { saveSecurityAnswers } from '../../src/identity/security-answers';
import { encryptSecret } from '../../src/platform/encryption';
import { appPart, dbOf, unique, type FactoryTarget } from './target';

/**
 * People: the one way tests make users, so a new column with a default needs no change in
 * every test file.
 */

/** The authenticator secret (base32) the test accounts enrol with: `currentTotp(TOTP_SECRET, now)` is their code. */
export const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** A person's columns; `password` is stored hashed, `totpSecret` encrypted and enrolled (at `mfaEnrolledAt`, default now). */
export type PersonValues = Partial<typeof users.$inferInsert> & { password?: string; totpSecret?: string };

/**
 * Inserts an active person: `username` (default `person.<unique>`), `<username>@example.com`, Pat Tester, born
 * 1980-01-01, with no usable password and no authenticator unless `values` give them. `password` is hashed with the
 * app's hasher, `totpSecret` encrypted with its key. Answers the row.
 */
export async function createPerson(target: FactoryTarget, values: PersonValues = {}): Promise<User> {
  const { password, totpSecret, ...columns } = values;
  const username = columns.username ?? `person.${unique()}`;
  const passwordHash =
    password === undefined ? 'not used here' : await appPart(target, 'passwordHasher', 'password').hash(password);
  const authenticator =
    totpSecret === undefined
      ? {}
      : {
          totpSecretEncrypted: encryptSecret(appPart(target, 'secrets', 'totpSecret').encryptionKey, totpSecret),
          mfaEnrolledAt: new Date(),
        };
  const [user] = await dbOf(target)
    .insert(users)
    .values({
      username,
      email: `${username}@example.com`,
      firstName: 'Pat',
      lastName: 'Tester',
      dob: '1980-01-01',
      passwordHash,
      status: 'active',
      ...authenticator,
      ...columns,
    })
    .returning();
  return user!;
}

/** The password every account made by `createAccount` starts with (long enough for the policy). */
export const START_PASSWORD = 'correct horse battery staple orbit';
/** Every account made by `createAccount` answers its three questions with this. */
export const ANSWER = 'Blue  Harbor';
export const QUESTION_KEYS = ['first-car', 'first-school', 'childhood-nickname'];

/** A person who can use the login help: `START_PASSWORD` (also in their history) and three security answers. */
export async function createAccount(
  app: Pick<FastifyInstance, 'database' | 'passwordHasher'>,
  username: string,
  values: PersonValues = {},
): Promise<User> {
  const passwordHash = await app.passwordHasher.hash(START_PASSWORD);
  return app.database.db.transaction(async (tx) => {
    const user = await createPerson(tx, { username, passwordHash, ...values });
    await rememberPassword(tx, user.id, passwordHash, 6);
    await saveSecurityAnswers(
      tx,
      user.id,
      QUESTION_KEYS.map((questionId) => ({ questionId, answer: ANSWER })),
      app.passwordHasher,
    );
    return user;
  });
}
