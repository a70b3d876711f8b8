import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { rowsOf, type DbExecutor } from './db-executor';

/** What a run may answer: `more` = it stopped at its batch size with work left; the runner runs it again at once. */
export interface JobResult {
  more?: boolean;
}

/** A named periodic job (docs/decisions/0017): outbox delivery, rate-limit cleanup, inactivity, retention. */
export interface Job {
  name: string;
  intervalMs: number;
  /**
   * Runs inside the transaction that holds the job's advisory lock. A job with a large backlog does one batch and
   * answers `{ more: true }`: each batch is then its own short transaction, so no lock is held for long.
   */
  run(tx: DbExecutor): Promise<void | JobResult>;
}

/** A stable 32-bit key per job name for pg_try_advisory_xact_lock (its two-integer form, first half "portal jobs"). */
function lockKey(name: string): number {
  let h = 0;
  for (const ch of name) h = (Math.imul(h, 31) + ch.codePointAt(0)!) | 0;
  return h;
}
const JOB_LOCK_CLASS = 0x6a6f6273; // 'jobs'
/** Long enough for start-up work (migrations, demo data, the first requests) to finish first. */
export const FIRST_RUN_DELAY_MS = 30_000;

/**
 * Runs jobs on every instance's timer, but each job at most once per interval across all instances: the run takes
 * the job's transaction-scoped advisory lock (another instance holding it skips), then claims the interval in
 * `app_state` (an instance whose lock came after another's run sees the claim and skips). Works on PGlite and PostgreSQL.
 */
export class JobRunner {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;
  /** Told how each run ended (metrics): `ran` did the work, `skipped` found it locked or done, `failed` threw. */
  onRunFinished: ((job: string, outcome: 'ran' | 'skipped' | 'failed', seconds: number) => void) | undefined;

  private readonly jobs: readonly Job[];
  private readonly firstRunDelayMs: number;

  /**
   * `testing.intervalMs` (TEST_JOB_INTERVAL_MS, browser tests only: docs/decisions/0043): every job runs at that
   * interval, its first run one interval after start, so a test sees the jobs act within seconds.
   */
  constructor(
    private readonly db: Db,
    jobs: readonly Job[],
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
    testing: { intervalMs?: number } = {},
  ) {
    const { intervalMs } = testing;
    this.jobs = intervalMs === undefined ? jobs : jobs.map((job) => ({ ...job, intervalMs }));
    this.firstRunDelayMs = intervalMs ?? FIRST_RUN_DELAY_MS;
  }

  /**
   * The first run of each job comes soon after start (within `FIRST_RUN_DELAY_MS`), not one interval later: a daily job
   * on a server restarted more often than daily would otherwise never run. The claim in `app_state` still keeps it to
   * once per interval across restarts and instances.
   */
  start(): void {
    for (const job of this.jobs) this.schedule(job, Math.min(job.intervalMs, this.firstRunDelayMs));
  }

  /** Runs the job soon (e.g. the outbox after an enqueue), whether or not its interval has passed. */
  kick(name: string): void {
    const job = this.jobs.find((j) => j.name === name);
    if (!job || this.stopped) return;
    this.track(this.runOnce(job.name, { force: true }));
  }

  /**
   * Answers whether this call ran the job (false: another instance holds it, or it already ran this interval). A run
   * that answers `more` is followed by another at once (its own transaction), until the backlog is done.
   */
  async runOnce(name: string, { force = false } = {}): Promise<boolean> {
    const job = this.jobs.find((j) => j.name === name);
    if (!job) throw new Error(`unknown job ${name}`);
    let more = false;
    const start = performance.now();
    const finished = (outcome: 'ran' | 'skipped' | 'failed') =>
      this.onRunFinished?.(name, outcome, (performance.now() - start) / 1000);
    try {
      const ran = await this.db.transaction(async (tx) => {
        const [lock] = rowsOf<{ locked: boolean }>(
          await tx.execute(sql`select pg_try_advisory_xact_lock(${JOB_LOCK_CLASS}, ${lockKey(name)}) as locked`),
        );
        if (!lock?.locked) return false;
        const now = this.now();
        const due = new Date(now.getTime() - job.intervalMs + 1);
        const claimed = rowsOf(
          await tx.execute(sql`
            insert into app_state (key, value, updated_at) values (${`job:${name}`}, '{}'::jsonb, ${now.toISOString()})
            on conflict (key) do update set updated_at = excluded.updated_at
            where ${force} or app_state.updated_at < ${due.toISOString()}
            returning key`),
        );
        if (!claimed.length) return false;
        more = (await job.run(tx))?.more === true;
        return true;
      });
      if (ran && more) this.kick(name);
      finished(ran ? 'ran' : 'skipped');
      return ran;
    } catch (err) {
      this.log.error({ err, job: name }, 'job failed');
      finished('failed');
      return false;
    }
  }

  /** Stops the timers and waits for runs in progress (close-with-grace on shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  private schedule(job: Job, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.track(this.runOnce(job.name)).finally(() => this.schedule(job, job.intervalMs));
    }, delayMs);
    timer.unref();
    this.timers.set(job.name, timer);
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.running.add(promise);
    void promise.finally(() => this.running.delete(promise));
    return promise;
  }
}
