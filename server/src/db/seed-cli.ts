import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../config';
import { openDatabase } from './client';
import { seedDemoThroughFeeds } from '../feeds/demo-seed';
import { DEMO_SEED } from './demo-data';

const usage = 'Usage: npm run seed -- [--locations N] [--seed N] [--reset]';
let args;
try {
  args = parseArgs({
    options: {
      locations: { type: 'string', default: '250' },
      seed: { type: 'string', default: String(DEMO_SEED) },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(1);
}
if (args.help) {
  console.log(`${usage}\nCreates deterministic demo provider locations and claims (once; --reset replaces them).`);
  process.exit(0);
}
const locations = Number(args.locations);
const seed = Number(args.seed);
if (!Number.isInteger(locations) || locations < 1 || locations > 2_000_000) {
  console.error(`--locations must be a whole number from 1 to 2000000 (got "${args.locations}")\n${usage}`);
  process.exit(1);
}
if (!Number.isInteger(seed)) {
  console.error(`--seed must be a whole number (got "${args.seed}")\n${usage}`);
  process.exit(1);
}

const config = loadConfigOrExit();

const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await database.migrate();
  const started = Date.now();
  // Through the data-feed import, as on a first start (docs/requirements/data-feeds.md#demo-data).
  const result = await seedDemoThroughFeeds(database, { locations, seed, reset: args.reset });
  if (result.seeded)
    console.log(
      `Created ${result.locations} locations and ${result.claims} claims in ${((Date.now() - started) / 1000).toFixed(1)} s (${database.kind}).`,
    );
  else console.log(`Demo data already exists (${result.locations} locations); pass --reset to replace it.`);
} finally {
  await database.close();
}
