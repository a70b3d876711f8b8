import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { FeedKindSchema, FeedModeSchema, feedKinds } from '@portal/contracts/data-feeds';
import { loadConfigOrExit } from '../config';
import { openDatabase } from '../db/client';
import { importFeed } from './import';
import { EXIT_CODES, FeedRefusal } from './refusal';
import { importHistory } from './history';

const usage = `Usage:
  npm run import -- <kind> <file> [--mode snapshot|delta] [--dry-run] [--force]
  npm run import -- history [--limit N]
kinds: ${feedKinds.join(', ')}
exit codes: 0 imported, 1 failed, 2 usage, 3 refused (nothing written), 4 already imported, 5 another import of the kind is running
(docs/requirements/data-feeds.md)`;

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      mode: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      limit: { type: 'string', default: '20' },
      help: { type: 'boolean', default: false },
    },
  });
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(EXIT_CODES.usage);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const config = loadConfigOrExit();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
let exitCode: number = EXIT_CODES.imported;
try {
  await database.migrate();
  if (positionals[0] === 'history' && positionals.length === 1) {
    const limit = Number(values.limit);
    for (const line of await importHistory(database.db, Number.isInteger(limit) && limit > 0 ? limit : 20))
      console.log(line);
  } else {
    const kind = FeedKindSchema.safeParse(positionals[0]);
    const mode = FeedModeSchema.safeParse(values.mode ?? 'delta');
    if (!kind.success || !mode.success || positionals.length !== 2) {
      console.error(usage);
      exitCode = EXIT_CODES.usage;
    } else {
      exitCode = await runImport(kind.data, positionals[1]!, mode.data);
    }
  }
} finally {
  await database.close();
}
process.exit(exitCode);

async function runImport(kind: (typeof feedKinds)[number], file: string, mode: 'snapshot' | 'delta') {
  // A bar with rows, rows/s and the ETA from the bytes read, on a terminal; a line every five seconds otherwise.
  const tty = process.stderr.isTTY;
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: '{bar} {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}', stream: process.stderr },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const started = Date.now();
  let lastLog = started;
  try {
    const summary = await importFeed(database, {
      kind,
      file,
      mode,
      dryRun: values['dry-run'],
      force: values.force,
      startedBy: 'command',
      settings: config.feeds,
      onProgress({ rows, bytes, totalBytes }) {
        const seconds = (Date.now() - started) / 1000;
        const rate = Math.round(rows / Math.max(seconds, 0.001));
        if (bar) {
          if (!bar.isActive) bar.start(totalBytes, 0, { rows: 0, rate: 0 });
          bar.update(bytes, { rows: rows.toLocaleString('en-US'), rate: rate.toLocaleString('en-US') });
        } else if (Date.now() - lastLog >= 5000) {
          lastLog = Date.now();
          console.error(
            `${kind}: ${rows.toLocaleString('en-US')} rows, ${rate.toLocaleString('en-US')} rows/s, ${((bytes / Math.max(totalBytes, 1)) * 100).toFixed(0)} % of the file`,
          );
        }
      },
    });
    bar?.stop();
    console.log(
      `${summary.outcome === 'dry-run' ? 'dry run (nothing written)' : 'imported'}: run ${summary.runId}, ${kind} (${summary.mode}): ` +
        `read ${summary.read}, inserted ${summary.inserted}, updated ${summary.updated}, end-dated ${summary.endDated}, ` +
        `rejected ${summary.rejected}, ${summary.seconds.toFixed(1)} s ` +
        `(read and staged ${summary.phases.stage.toFixed(1)} s, of which waiting for the stage ${summary.phases.stageWait.toFixed(1)} s; ` +
        `checked ${summary.phases.check.toFixed(1)} s; merged ${summary.phases.merge.toFixed(1)} s)` +
        (summary.rejectReport ? `\nrejected rows: ${summary.rejectReport}` : ''),
    );
    return EXIT_CODES.imported;
  } catch (err) {
    bar?.stop();
    if (err instanceof FeedRefusal) {
      console.error(`${file}: refused (${err.code}): ${err.message}`);
      return err.exitCode;
    }
    console.error(`${file}: the import failed, nothing was written: ${(err as Error).message}`);
    return EXIT_CODES.failed;
  }
}
