import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { feedKinds, type FeedKind } from '@portal/contracts/data-feeds';
import type { DatabaseHandle } from '../db/client';
import { importFeed, type ImportSettings, type ImportSummary } from './import';
import { FeedRefusal } from './refusal';

/** What one file of a scan came to. */
export interface DropOutcome {
  kind: FeedKind;
  file: string;
  outcome: 'imported' | 'already-imported' | 'rejected' | 'failed';
  /** Where the file went (done/ or rejected/). */
  movedTo: string;
  summary?: ImportSummary;
  message?: string;
}

/**
 * A file is taken only once its writer has finished, which it says by renaming it into place
 * (docs/requirements/data-feeds.md#drop-folder): names starting with a dot or ending in `.part` or `.tmp` are still
 * being written and are left alone.
 */
const unfinished = (name: string) => name.startsWith('.') || name.endsWith('.part') || name.endsWith('.tmp');

const stamp = (now: Date) =>
  now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/**
 * One pass over the drop folder: `<folder>/<kind>/` holds the files of each kind (`*.snapshot.*` imported as a
 * snapshot, any other as a delta), oldest name first. Each imported file moves to `done/<kind>/`, each refused one
 * to `rejected/<kind>/` with a `.refusal.txt` saying why, each with its reject report. A file whose kind is being
 * imported elsewhere (another instance) stays for the next pass.
 */
export async function scanDropFolder(
  database: DatabaseHandle,
  folder: string,
  options: { settings?: Partial<ImportSettings>; now?: () => Date } = {},
): Promise<DropOutcome[]> {
  const now = options.now ?? (() => new Date());
  const outcomes: DropOutcome[] = [];
  const reports = join(folder, '.reports');
  for (const kind of feedKinds) {
    const inbox = join(folder, kind);
    if (!existsSync(inbox)) continue;
    const names = readdirSync(inbox)
      .filter((name) => !unfinished(name) && statSync(join(inbox, name)).isFile())
      .sort();
    for (const name of names) {
      const file = join(inbox, name);
      mkdirSync(reports, { recursive: true, mode: 0o700 });
      const report = join(reports, `${name}.rejects.csv`);
      const moveTo = (place: 'done' | 'rejected', note?: string) => {
        const target = join(folder, place, kind);
        mkdirSync(target, { recursive: true, mode: 0o700 });
        const moved = join(target, `${stamp(now())}-${name}`);
        renameSync(file, moved);
        if (existsSync(report)) renameSync(report, `${moved}.rejects.csv`);
        if (note) writeFileSync(`${moved}.refusal.txt`, `${note}\n`, { mode: 0o600 });
        return moved;
      };
      try {
        const summary = await importFeed(database, {
          kind,
          file,
          mode: /\.snapshot\./.test(name) ? 'snapshot' : 'delta',
          startedBy: 'job',
          rejectReport: report,
          settings: options.settings,
        });
        outcomes.push({ kind, file: name, outcome: 'imported', movedTo: moveTo('done'), summary });
      } catch (err) {
        if (err instanceof FeedRefusal && err.code === 'Import_Running') continue;
        if (!existsSync(file)) continue; // another instance took it meanwhile
        const message =
          err instanceof FeedRefusal ? `${err.code}: ${err.message}` : `failed: ${(err as Error).message}`;
        if (err instanceof FeedRefusal && err.code === 'Already_Imported')
          outcomes.push({ kind, file: name, outcome: 'already-imported', movedTo: moveTo('done', message), message });
        else
          outcomes.push({
            kind,
            file: name,
            outcome: err instanceof FeedRefusal ? 'rejected' : 'failed',
            movedTo: moveTo('rejected', message),
            message,
          });
      }
    }
  }
  return outcomes;
}

/**
 * Scans the drop folder every `intervalMs` on a listening server (FEED_DROP_FOLDER; off when unset). One scan at a
 * time per process; across instances the import's per-kind lock keeps two from importing one kind at once.
 */
export class DropFolderWatcher {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly folder: string,
    private readonly intervalMs: number,
    private readonly log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
    private readonly settings?: Partial<ImportSettings>,
  ) {}

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.current = scanDropFolder(this.database, this.folder, { settings: this.settings })
        .then((outcomes) => {
          for (const o of outcomes)
            this.log.info(
              { kind: o.kind, file: basename(o.file), outcome: o.outcome, runId: o.summary?.runId },
              `data feed ${o.outcome}: ${o.message ?? ''}`.trim(),
            );
        })
        .catch((err: unknown) => this.log.error({ err }, 'data feed drop folder: the scan failed'))
        .finally(() => {
          this.current = undefined;
          if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, this.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }
}
