import { once } from 'node:events';
import { closeSync, openSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { finished } from 'node:stream/promises';
import {
  feedColumns,
  maskFeedValue,
  type FeedColumn,
  snapshotKinds,
  type FeedKind,
  type FeedMode,
  type FeedRejectCode,
} from '@portal/contracts/data-feeds';
import type { DatabaseHandle, DedicatedConnection, QueryFn } from '../db/client';
import { recordAudit } from '../platform/audit';
import { csvRows, type SourceRow } from './csv-rows';
import { inspectFile } from './file-checks';
import { kindSpecs, type KindSpec } from './kinds';
import { FeedRefusal } from './refusal';
import { x12ClaimRows } from './x12-rows';

/** An X12 interchange starts with ISA (after blanks or a byte-order mark); anything else is read as CSV. */
async function detectFormat(path: string): Promise<'csv' | 'x12'> {
  const handle = await open(path);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    return /^(\uFEFF)?\s*ISA/.test(buffer.subarray(0, bytesRead).toString('utf8')) ? 'x12' : 'csv';
  } finally {
    await handle.close();
  }
}

/** The import's settings (docs/requirements/data-feeds.md#settings). */
export interface ImportSettings {
  /** A file whose rejected rows exceed this share of its rows is refused whole. Default 0.01. */
  maxRejectShare: number;
  /** A snapshot that would end-date more than this share of the rows in force is refused unless forced. Default 0.05. */
  maxEndDateShare: number;
}
export const DEFAULT_IMPORT_SETTINGS: ImportSettings = { maxRejectShare: 0.01, maxEndDateShare: 0.05 };

export interface ImportRequest {
  kind: FeedKind;
  file: string;
  mode?: FeedMode;
  dryRun?: boolean;
  force?: boolean;
  startedBy: 'command' | 'job' | 'demo';
  /** Where the reject report goes; default `<file>.rejects.csv`. */
  rejectReport?: string;
  /** The import's day (UTC, YYYY-MM-DD): end-dating sets it. Default today. */
  today?: string;
  settings?: Partial<ImportSettings>;
  /** Called as the file is read: rows so far and bytes of `totalBytes`. */
  onProgress?: (progress: { rows: number; bytes: number; totalBytes: number }) => void;
}

export interface ImportSummary {
  runId: number;
  outcome: 'succeeded' | 'dry-run';
  kind: FeedKind;
  mode: FeedMode;
  read: number;
  inserted: number;
  updated: number;
  endDated: number;
  rejected: number;
  seconds: number;
  /** The reject report's path, when a row was rejected. */
  rejectReport?: string;
  /**
   * Seconds spent reading, checking and staging the rows (of which waiting for the stage to take them), checking the
   * stage (statistics, duplicate keys, the reject report), and merging in one transaction (benchmarks).
   */
  phases: { stage: number; stageWait: number; check: number; merge: number };
}

interface Reject {
  line: number;
  column: string;
  code: FeedRejectCode;
  value: string;
}

const STAGE_BATCH = 500;
const COPY_CHUNK_BYTES = 256 * 1024;
/** The session advisory lock of one kind's imports, across every process on the database. */
const lockKey = (kind: FeedKind) => `portal:import:${kind}`;
/** PGlite has one connection, so its imports also queue in-process (one staging table at a time). */
let pgliteQueue: Promise<unknown> = Promise.resolve();
const pgliteRunning = new Set<FeedKind>();

/** COPY's text format: backslash, tab and line breaks escaped; \N is null. */
function copyValue(value: string | null): string {
  if (value === null) return '\\N';
  if (!/[\\\t\n\r]/.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Imports one data-feed file (docs/requirements/data-feeds.md): the whole file lands or none of it. The file is read
 * twice as a stream (its SHA-256 and encoding first, then its rows), never held in memory; its rows go to a
 * temporary staging table (COPY on PostgreSQL, batched inserts on PGlite) and are merged set-based in one
 * transaction, so the portal sees the old data or the new. Throws FeedRefusal when the file is refused.
 */
export async function importFeed(database: DatabaseHandle, request: ImportRequest): Promise<ImportSummary> {
  const started = performance.now();
  const kind = request.kind;
  const mode: FeedMode = request.mode ?? 'delta';
  const settings = { ...DEFAULT_IMPORT_SETTINGS, ...request.settings };
  const today = request.today ?? isoDay(new Date());
  if (mode === 'snapshot' && !snapshotKinds.includes(kind))
    throw new FeedRefusal(
      'Mode_Not_Allowed',
      `${kind} files are imported as a delta only: a paid claim is never ended, and old ones are purged by retention`,
    );

  const format = await detectFormat(request.file);
  if (format === 'x12' && kind !== 'paid-claims')
    throw new FeedRefusal('Wrong_Format', `an X12 file can only be a paid-claims feed (835 remittance advice)`);
  // An X12 file ends with its segment terminator, not necessarily a line break.
  const facts = await inspectFile(request.file, { requireFinalNewline: format === 'csv' });
  const connection = await database.dedicated();
  let release: (() => Promise<void>) | undefined;
  let runId: number | undefined;
  try {
    release = await acquireLock(connection, kind);
    if (!request.force && !request.dryRun) {
      const { rows } = await connection.query<{ id: string; finished_at: Date }>(
        `select id, finished_at from import_runs where kind = $1 and sha256 = $2 and outcome = 'succeeded' order by id limit 1`,
        [kind, facts.sha256],
      );
      const previous = rows[0];
      if (previous)
        throw new FeedRefusal(
          'Already_Imported',
          `already imported (run ${previous.id}, ${new Date(previous.finished_at).toISOString().slice(0, 16).replace('T', ' ')} UTC); pass --force to import it again`,
        );
    }
    await connection.query(
      `update import_runs set outcome = 'interrupted', finished_at = clock_timestamp(), message = 'the process ended before the run finished'
       where kind = $1 and outcome = 'running'`,
      [kind],
    );
    const run = await connection.query<{ id: string }>(
      `insert into import_runs (kind, mode, file_name, sha256, format, forced, started_by)
       values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [kind, mode, basename(request.file), facts.sha256, format, request.force ?? false, request.startedBy],
    );
    runId = Number(run.rows[0]!.id);
    const summary = await stageAndMerge(connection, {
      ...request,
      format,
      mode,
      today,
      settings,
      runId,
      totalBytes: facts.bytes,
      started,
    });
    await recordAudit(database.db, {
      actor: 'system',
      action: 'feeds.import',
      target: `import_run:${runId}`,
      outcome: 'success',
      details: { reason: `${kind}:${summary.outcome}`, count: summary.read },
    });
    return summary;
  } catch (err) {
    if (runId !== undefined) {
      const refused = err instanceof FeedRefusal;
      await connection
        .query(`update import_runs set outcome = $2, message = $3, finished_at = clock_timestamp() where id = $1`, [
          runId,
          refused ? 'refused' : 'failed',
          (refused ? `${err.code}: ${err.message}` : (err as Error).message).slice(0, 1000),
        ])
        .catch(() => {});
      await recordAudit(database.db, {
        actor: 'system',
        action: 'feeds.import',
        target: `import_run:${runId}`,
        outcome: 'failure',
        details: { reason: refused ? err.code : 'failed' },
      }).catch(() => {});
    }
    throw err;
  } finally {
    // Only the lock's holder owns the staging table (on PGlite every import shares one connection).
    if (release) {
      await connection.query('drop table if exists feed_stage').catch(() => {});
      await release();
    }
    await connection.close();
  }
}

/** The merge transaction's PostgreSQL settings (`bench:import` lands its comparison rows with the same ones). */
export async function setMergeSettings(q: QueryFn): Promise<void> {
  await q('set local statement_timeout = 0');
  // The run is recorded in import_runs by this transaction: a crash just after its commit loses at most the
  // run, which the next one (same file, not "already imported") redoes. No flush wait at the commit.
  await q('set local synchronous_commit = off');
  // Hash joins and index builds in memory for the merge's transaction only (docs/decisions/0089).
  await q(`set local work_mem = '64MB'`);
  await q(`set local maintenance_work_mem = '256MB'`);
}

async function acquireLock(connection: DedicatedConnection, kind: FeedKind): Promise<() => Promise<void>> {
  if (connection.kind === 'pglite') {
    if (pgliteRunning.has(kind))
      throw new FeedRefusal('Import_Running', `another ${kind} import is running; try again when it has finished`);
    pgliteRunning.add(kind);
    let done!: () => void;
    const previous = pgliteQueue;
    pgliteQueue = new Promise<void>((resolve) => (done = resolve));
    await previous;
    return async () => {
      pgliteRunning.delete(kind);
      done();
    };
  }
  const { rows } = await connection.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtext($1)) as locked', [
    lockKey(kind),
  ]);
  if (!rows[0]?.locked)
    throw new FeedRefusal('Import_Running', `another ${kind} import is running; try again when it has finished`);
  return async () => {
    await connection.query('select pg_advisory_unlock(hashtext($1))', [lockKey(kind)]).catch(() => {});
  };
}

interface StageContext extends ImportRequest {
  format: 'csv' | 'x12';
  mode: FeedMode;
  today: string;
  settings: ImportSettings;
  runId: number;
  totalBytes: number;
  started: number;
}

async function stageAndMerge(connection: DedicatedConnection, ctx: StageContext): Promise<ImportSummary> {
  const spec = kindSpecs[ctx.kind];
  const columns = feedColumns[ctx.kind];
  // A kind whose rows name a location stages the location's id, found in memory as the rows stream: the merge then
  // joins nothing, and a row of an unknown location is rejected on the spot (docs/decisions/0087-import-merge.md).
  const locations = spec.unknownLocation ? await locationIds(connection.query) : undefined;
  const locationKey = (['npi', 'ptan', 'line_of_business'] as const).map((name) =>
    spec.stage.findIndex(([n]) => n === name),
  );
  const stageColumns = ['line', ...spec.stage.map(([name]) => name), ...(locations ? ['location_id'] : [])];
  await connection.query('drop table if exists feed_stage');
  await connection.query(
    `create temporary table feed_stage (line integer not null, ${spec.stage.map(([n, t]) => `${n} ${t}`).join(', ')}${locations ? ', location_id uuid not null' : ''})`,
  );
  const checks = columns.map((column) => memoised(column.check));

  const stagingStarted = performance.now();
  const rejects: Reject[] = [];
  let read = 0;
  let bytes = 0;
  const sink = stageSink(connection, stageColumns);
  const onBytes = (b: number) => (bytes = b);
  const batches: AsyncIterable<SourceRow[]> =
    ctx.format === 'x12' ? x12ClaimRows(ctx.file, onBytes) : csvRows(ctx.file, columns, onBytes);
  let reported = 0;
  try {
    // A read buffer's rows at a time: checked in a synchronous loop, then one await to hand them to the stage.
    for await (const batch of batches) {
      for (const row of batch) {
        read++;
        if (row.shapeError) {
          rejects.push({ line: row.line, column: '', code: row.shapeError, value: '' });
          continue;
        }
        const staged = checkRow(spec, columns, checks, row, rejects);
        if (!staged) continue;
        if (locations) {
          const id = locations.get(locationKey.map((i) => staged[i]).join('|'));
          if (id === undefined) {
            rejects.push({ line: row.line, column: 'NPI', code: 'Unknown_Location', value: staged[locationKey[0]!]! });
            continue;
          }
          staged.push(id);
        }
        sink.add(row.line, staged);
      }
      await sink.flushIfFull();
      if (read - reported >= 10_000) {
        reported = read;
        ctx.onProgress?.({ rows: read, bytes, totalBytes: ctx.totalBytes });
      }
    }
    await sink.end();
  } catch (err) {
    await sink.abort();
    throw err;
  }
  ctx.onProgress?.({ rows: read, bytes: ctx.totalBytes, totalBytes: ctx.totalBytes });
  const staged = performance.now();
  if (read === 0 && !ctx.force)
    throw new FeedRefusal('Empty_File', 'the file holds a header but no rows; pass --force if that is meant');

  // A temporary table has no statistics until analysed: without them the merge's joins are planned blind.
  await connection.query('analyze feed_stage');
  await refuseDuplicateKeys(connection.query, spec);
  rejects.sort((a, b) => a.line - b.line);
  const rejectReport = rejects.length
    ? writeRejectReport(ctx.rejectReport ?? `${ctx.file}.rejects.csv`, columns, rejects)
    : undefined;
  const rejectedRows = new Set(rejects.map((r) => r.line)).size;
  if (read > 0 && rejectedRows / read > ctx.settings.maxRejectShare)
    throw new FeedRefusal(
      'Too_Many_Rejects',
      `${rejectedRows} of ${read} rows were rejected (${pct(rejectedRows / read)}, more than ${pct(ctx.settings.maxRejectShare)}): nothing was imported; see ${rejectReport}`,
    );

  const checked = performance.now();

  const merge = async (q: QueryFn) => {
    if (connection.kind === 'postgres') await setMergeSettings(q);
    let endDated = 0;
    if (ctx.mode === 'snapshot' && spec.endDating) {
      const { missing, inForce } = await spec.endDating.count(q, ctx.today);
      if (inForce > 0 && missing / inForce > ctx.settings.maxEndDateShare && !ctx.force)
        throw new FeedRefusal(
          'Too_Many_End_Dated',
          `this snapshot would end-date ${missing} of ${inForce} rows in force (${pct(missing / inForce)}, more than ${pct(ctx.settings.maxEndDateShare)}): is the file complete? Nothing was imported; pass --force if it is`,
        );
      if (read === 0 && inForce > 0 && !ctx.force)
        throw new FeedRefusal(
          'Empty_File',
          'an empty snapshot would end-date every row; pass --force if that is meant',
        );
    }
    let updated: number;
    let inserted: number;
    if (spec.rebuild && (await spec.rebuild.applies(q, read - rejectedRows)))
      ({ updated, inserted } = await spec.rebuild.apply(q, ctx.runId));
    else {
      updated = await spec.update(q, ctx.runId, ctx.today);
      inserted = await spec.insert(q, ctx.runId, ctx.today);
    }
    if (ctx.mode === 'snapshot' && spec.endDating) endDated = await spec.endDating.apply(q, ctx.runId, ctx.today);
    const counts = { inserted, updated, endDated };
    await q(
      `update import_runs set rows_read = $2, rows_inserted = $3, rows_updated = $4, rows_end_dated = $5,
         rows_rejected = $6, outcome = $7, finished_at = clock_timestamp() where id = $1`,
      [ctx.runId, read, inserted, updated, endDated, rejectedRows, ctx.dryRun ? 'dry-run' : 'succeeded'],
    );
    return counts;
  };

  let counts: { inserted: number; updated: number; endDated: number };
  if (ctx.dryRun) {
    // The same merge, rolled back: the counts are exactly what a real run would do.
    const rollback = new Error('dry run');
    counts = { inserted: 0, updated: 0, endDated: 0 };
    await connection
      .transaction(async (q) => {
        counts = await merge(q);
        throw rollback;
      })
      .catch((err: unknown) => {
        if (err !== rollback) throw err;
      });
    await connection.query(
      `update import_runs set rows_read = $2, rows_inserted = $3, rows_updated = $4, rows_end_dated = $5,
         rows_rejected = $6, outcome = 'dry-run', finished_at = clock_timestamp() where id = $1`,
      [ctx.runId, read, counts.inserted, counts.updated, counts.endDated, rejectedRows],
    );
  } else {
    counts = await connection.transaction(merge);
  }
  return {
    runId: ctx.runId,
    outcome: ctx.dryRun ? 'dry-run' : 'succeeded',
    kind: ctx.kind,
    mode: ctx.mode,
    read,
    ...counts,
    rejected: rejectedRows,
    seconds: (performance.now() - ctx.started) / 1000,
    ...(rejectReport ? { rejectReport } : {}),
    phases: {
      stage: (staged - stagingStarted) / 1000,
      stageWait: sink.waited() / 1000,
      check: (checked - staged) / 1000,
      merge: (performance.now() - checked) / 1000,
    },
  };
}

const pct = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 2 : 1)} %`;

/** The row's staged values, or undefined when a column broke its rule (then its rejects are recorded). */
function checkRow(
  spec: KindSpec,
  columns: ReturnType<() => (typeof feedColumns)[FeedKind]>,
  checks: FeedColumn['check'][],
  row: SourceRow,
  rejects: Reject[],
): (string | null)[] | undefined {
  const values: Record<string, string> = {};
  let bad = false;
  for (let c = 0; c < columns.length; c++) {
    const column = columns[c]!;
    const raw = row.values[column.name] ?? '';
    if (raw === '') {
      if (column.required) {
        rejects.push({ line: row.line, column: column.name, code: 'Required', value: '' });
        bad = true;
      }
      values[column.name] = '';
      continue;
    }
    const checked = checks[c]!(raw);
    if (checked.ok) values[column.name] = checked.value;
    else {
      rejects.push({
        line: row.line,
        column: column.name,
        code: checked.code,
        value: column.masked ? maskFeedValue(raw) : raw,
      });
      bad = true;
    }
  }
  if (bad) return undefined;
  const staged = spec.toStage(values);
  if (Array.isArray(staged)) return staged;
  const column = columns.find((c) => c.name === staged.column);
  const raw = values[staged.column] ?? '';
  rejects.push({
    line: row.line,
    column: staged.column,
    code: staged.code,
    value: column?.masked ? maskFeedValue(raw) : raw,
  });
  return undefined;
}

/** Every provider location's id by `npi|ptan|line_of_business`, as the stage's rows name them. */
async function locationIds(q: QueryFn): Promise<Map<string, string>> {
  const { rows } = await q<{ key: string; id: string }>(
    `select npi || '|' || ptan || '|' || line_of_business as key, id from provider_locations`,
  );
  return new Map(rows.map((r) => [r.key, r.id]));
}

const MEMO_LIMIT = 4096;

/**
 * A column rule that remembers its answers for the first MEMO_LIMIT distinct values: a paid-claims file repeats a
 * few thousand NPIs, PTANs, dates and amounts a million times, and a rule's regular expressions and check digit
 * cost more than a Map lookup. Columns whose every value is new (claim numbers, MBIs) stop filling it.
 */
function memoised(check: FeedColumn['check']): FeedColumn['check'] {
  const answers = new Map<string, ReturnType<FeedColumn['check']>>();
  return (value) => {
    let answer = answers.get(value);
    if (answer === undefined) {
      answer = check(value);
      if (answers.size < MEMO_LIMIT) answers.set(value, answer);
    }
    return answer;
  };
}

async function refuseDuplicateKeys(q: QueryFn, spec: KindSpec): Promise<void> {
  const key = spec.key.join(', ');
  // The keys named twice first (a count per key), then the lines of those only: gathering every key's lines into an
  // array to keep a handful cost more than the count (docs/decisions/0089-import-rebuild-and-parse.md).
  const { rows } = await q<{ key: string; lines: number[] }>(
    `with twice as (select ${key}, min(line) as first from feed_stage group by ${key} having count(*) > 1
                    order by first limit 5)
     select concat_ws('/', ${spec.key.map((k) => `t.${k}`).join(', ')}) as key, array_agg(s.line order by s.line) as lines
     from twice t join feed_stage s using (${key}) group by ${spec.key.map((k) => `t.${k}`).join(', ')}, t.first
     order by t.first`,
  );
  if (rows.length)
    throw new FeedRefusal(
      'Duplicate_Keys',
      `the file names one row twice: ${rows.map((r) => `${spec.key.join('/')} ${r.key} on lines ${r.lines.join(', ')}`).join('; ')}`,
    );
}

/** The reject report: a CSV of line, column, code and the value (MBI and TIN masked), readable by its owner only. */
function writeRejectReport(path: string, columns: readonly { name: string; masked?: boolean }[], rejects: Reject[]) {
  void columns;
  const fd = openSync(path, 'w', 0o600);
  try {
    writeSync(fd, 'LINE,COLUMN,CODE,VALUE\n');
    for (const r of rejects) writeSync(fd, `${r.line},${r.column},${r.code},${csvField(r.value)}\n`);
  } finally {
    closeSync(fd);
  }
  return path;
}

const csvField = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

interface StageSink {
  /** Adds a checked row (kept in memory until the next flush). */
  add(line: number, values: (string | null)[]): void;
  /** Sends the rows added so far once they fill a chunk (COPY) or a batch (PGlite). */
  flushIfFull(): Promise<void>;
  end(): Promise<void>;
  abort(): Promise<void>;
  /** Milliseconds spent waiting for the database to take the rows. */
  waited(): number;
}

/** Rows into feed_stage: COPY on PostgreSQL (text format, written in large chunks), batched inserts on PGlite. */
function stageSink(connection: DedicatedConnection, stageColumns: string[]): StageSink {
  const columnList = stageColumns.join(', ');
  if (connection.copyFrom) {
    const stream = connection.copyFrom(`copy feed_stage (${columnList}) from stdin`);
    let buffer = '';
    let failure: unknown;
    let waited = 0;
    stream.on('error', (err) => (failure ??= err));
    const flush = async () => {
      if (failure) throw failure;
      if (!buffer) return;
      const ok = stream.write(buffer);
      buffer = '';
      if (!ok) {
        const from = performance.now();
        await once(stream, 'drain');
        waited += performance.now() - from;
      }
    };
    return {
      add(line, values) {
        let text = String(line);
        for (const value of values) text += `\t${copyValue(value)}`;
        buffer += `${text}\n`;
      },
      async flushIfFull() {
        if (buffer.length >= COPY_CHUNK_BYTES) await flush();
      },
      async end() {
        await flush();
        const from = performance.now();
        stream.end();
        await finished(stream);
        waited += performance.now() - from;
      },
      async abort() {
        stream.destroy(new Error('import aborted'));
        await finished(stream).catch(() => {});
      },
      waited: () => waited,
    };
  }
  let batch: (string | null)[][] = [];
  let waited = 0;
  const flush = async () => {
    while (batch.length) {
      const rows = batch.splice(0, STAGE_BATCH);
      const params: (string | null)[] = [];
      const tuples = rows.map((row) => `(${row.map((value) => `$${params.push(value)}`).join(', ')})`);
      const from = performance.now();
      await connection.query(`insert into feed_stage (${columnList}) values ${tuples.join(', ')}`, params);
      waited += performance.now() - from;
    }
  };
  return {
    add(line, values) {
      batch.push([String(line), ...values]);
    },
    async flushIfFull() {
      if (batch.length >= STAGE_BATCH) await flush();
    },
    end: flush,
    async abort() {
      batch = [];
    },
    waited: () => waited,
  };
}
