import { desc } from 'drizzle-orm';
import type { Db } from '../db/client';
import { importRuns } from '../db/schema';

/** The latest import runs, newest first, one line each (`npm run import -- history`). */
export async function importHistory(db: Db, limit: number): Promise<string[]> {
  const runs = await db.select().from(importRuns).orderBy(desc(importRuns.id)).limit(limit);
  if (!runs.length) return ['no import has run yet'];
  return runs.map((run) => {
    const when = run.startedAt.toISOString().slice(0, 16).replace('T', ' ');
    const seconds = run.finishedAt
      ? `${((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000).toFixed(1)} s`
      : '';
    return [
      `run ${run.id}`,
      `${when} UTC`,
      `${run.kind} (${run.mode}${run.forced ? ', forced' : ''})`,
      run.fileName,
      run.outcome,
      `read ${run.rowsRead}, inserted ${run.rowsInserted}, updated ${run.rowsUpdated}, end-dated ${run.rowsEndDated}, rejected ${run.rowsRejected}`,
      seconds,
      `by ${run.startedBy}`,
      `sha256 ${run.sha256.slice(0, 12)}…`,
      run.message ?? '',
    ]
      .filter(Boolean)
      .join(' | ');
  });
}
