import type { FastifyInstance } from 'fastify';
import { and, desc, eq } from 'drizzle-orm';
import { insertTestUser } from '../helpers';
import { outbox, users } from '../../src/db/schema';
import { rememberPassword } from '../../src/identity/passwords/history';
import { saveSecurityAnswers } from '../../src/identity/security-answers';

/** The password every account made here starts with (long enough for the policy). */
export const START_PASSWORD = 'correct horse battery staple orbit';
/** Every account made here answers its three questions with this. */
export const ANSWER = 'Blue  Harbor';
export const QUESTION_KEYS = ['first-car', 'first-school', 'childhood-nickname'];

/** An account with a password (in its history) and three security answers. */
export async function createAccount(
  app: FastifyInstance,
  username: string,
  extra: Partial<typeof users.$inferInsert> = {},
): Promise<typeof users.$inferSelect> {
  const passwordHash = await app.passwordHasher.hash(START_PASSWORD);
  return app.database.db.transaction(async (tx) => {
    const user = await insertTestUser(app, username, { passwordHash, ...extra }, tx);
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

/** The newest queued email to `to` of `template` (undefined when none). */
export async function latestEmail(app: FastifyInstance, to: string, template: string) {
  const [row] = await app.database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, to), eq(outbox.template, template)))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  return row;
}

/** How many emails the outbox holds in all. */
export async function outboxCount(app: FastifyInstance): Promise<number> {
  return (await app.database.db.select({ id: outbox.id }).from(outbox)).length;
}
