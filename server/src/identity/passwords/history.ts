import { desc, eq, inArray } from 'drizzle-orm';
import { passwordHistory } from '../../db/schema';
import type { DbExecutor } from '../../platform/db-executor';
import type { PasswordHasher } from '../../platform/password-hashing';

/** Whether `password` matches one of the user's last `count` passwords (the history holds every password set). */
export async function isRecentPassword(
  db: DbExecutor,
  hasher: PasswordHasher,
  userId: string,
  password: string,
  count: number,
): Promise<boolean> {
  const recent = await db
    .select({ passwordHash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .limit(count);
  for (const row of recent) if (await hasher.verify(row.passwordHash, password)) return true;
  return false;
}

/** Records a newly set password's hash and forgets those older than the last `count`. Call in the change's transaction. */
export async function rememberPassword(
  db: DbExecutor,
  userId: string,
  passwordHash: string,
  count: number,
): Promise<void> {
  await db.insert(passwordHistory).values({ userId, passwordHash });
  const keep = await db
    .select({ id: passwordHistory.id })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, userId))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .offset(count);
  if (keep.length)
    await db.delete(passwordHistory).where(
      inArray(
        passwordHistory.id,
        keep.map((r) => r.id),
      ),
    );
}
