import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { seedDemoThroughFeeds } from './feeds/demo-seed';
import { openDatabase } from './db/client';
import { seedDemoAccounts } from './modules/auth/demo-accounts';
import { preparePrivateDataDir, restrictNewFilesToOwner } from './platform/data-dir';
import { logDestination, loggerOptions } from './platform/logger';
import { startMetricsServer } from './platform/metrics';
import { loadSecrets } from './platform/secrets';
import { closeGracefully, drainState } from './platform/shutdown';

function readConfig(): Config {
  try {
    const config = loadConfig();
    // The database, secrets and token handover files are for this user's eyes only (folders 0700, files 0600).
    restrictNewFilesToOwner();
    try {
      preparePrivateDataDir(config.dataDir);
    } catch (err) {
      console.error(
        `Configuration error: DATA_DIR ${config.dataDir} cannot be made private to this user (${(err as Error).message})`,
      );
      process.exit(1);
    }
    // A damaged data/secrets.json is a configuration problem too: reported before anything starts.
    loadSecrets(config);
    return config;
  } catch (err) {
    if (err instanceof ConfigError) {
      // One readable line per bad setting, then exit 1 (no stack trace: this is the operator's input).
      for (const problem of err.problems) console.error(`Configuration error: ${problem}`);
      process.exit(1);
    }
    throw err;
  }
}

const config = readConfig();
const logStream = logDestination(config.logFormat);
const log = logStream ? pino(loggerOptions(config.logLevel), logStream) : pino(loggerOptions(config.logLevel));

const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolMax: config.databasePoolMax,
});
const applied = await database.migrate();
log.info(
  { database: database.kind, migrationsApplied: applied },
  applied ? `applied ${applied} database migration(s)` : 'database schema is up to date',
);

if (config.seedDemoData) {
  // Through the data-feed import, from the sample files in server/demo-feeds/ (docs/requirements/data-feeds.md#demo-data).
  const seeded = await seedDemoThroughFeeds(database, { locations: config.seedLocations });
  if (seeded.seeded)
    log.info({ locations: seeded.locations, claims: seeded.claims }, 'created demo data through the data-feed import');
}

const app = await buildApp({ config, database, logStream });
if (config.seedDemoData) {
  const created = await seedDemoAccounts(database.db, app.passwordHasher, app.secrets.encryptionKey);
  if (created) log.info({ accounts: created }, 'created demo accounts (README: Demo accounts)');
}
// SIGTERM/SIGINT: stop accepting (new connections are refused; a request on an open connection is still served, with
// `Connection: close`), let every accepted request finish, those whose client went away included, and password hashes
// (PasswordHasher.close waits for them), then close the database — after the app, not in an onClose hook of its own:
// root onClose hooks run last-registered first, so one added here would run before the requests had finished. Past SHUTDOWN_TIMEOUT_MS the process exits 1 with an error line (docs/decisions/0032,
// 0061; platform/shutdown.ts).
closeWithGrace(
  {
    delay: config.shutdownTimeoutMs,
    logger: { error: (message: unknown) => app.log.error(message) },
    // With what held it: the connections still open (none: an onClose hook — hashing, jobs, the database — did).
    onTimeout: (delay) =>
      app.log.error(
        { shutdownTimeoutMs: delay, connections: drainState(app) },
        'shutdown: requests still running at SHUTDOWN_TIMEOUT_MS; exiting',
      ),
  },
  async ({ signal, err }) => {
    const started = Date.now();
    if (err) app.log.error({ err }, 'shutting down after an uncaught error');
    else app.log.info({ signal }, 'shutting down');
    await closeGracefully(app);
    await database.close();
    app.log.info({ ms: Date.now() - started }, 'shut down: every accepted request was answered');
  },
);

try {
  await app.listen({ host: config.host, port: config.port });
  // Prometheus metrics on their own port, loopback by default (docs/decisions/0033-openapi-metrics-deployment.md).
  await startMetricsServer(app);
} catch (err) {
  app.log.error({ err }, 'could not start listening');
  await database.close();
  process.exit(1);
}
