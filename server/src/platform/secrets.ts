import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Config } from '../config';

const SecretsFileSchema = z.object({ sessionSecret: z.string().min(32), encryptionKey: z.string().regex(/^[0-9a-f]{64}$/) });
export type Secrets = z.infer<typeof SecretsFileSchema>;

/**
 * Secrets come from the environment; outside production, missing ones are generated once into the gitignored
 * data folder (mode 0600) so that a laptop needs no set-up and restarts keep sessions valid.
 * Production requires them from the environment (config validation enforces it).
 */
export function loadSecrets(config: Config): Secrets {
  if (config.sessionSecret && config.encryptionKey) return { sessionSecret: config.sessionSecret, encryptionKey: config.encryptionKey.toLowerCase() };
  const file = join(config.dataDir, 'secrets.json');
  let stored: Secrets | undefined;
  if (existsSync(file)) stored = SecretsFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  if (!stored) {
    stored = { sessionSecret: randomBytes(32).toString('base64url'), encryptionKey: randomBytes(32).toString('hex') };
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return { sessionSecret: config.sessionSecret ?? stored.sessionSecret, encryptionKey: config.encryptionKey?.toLowerCase() ?? stored.encryptionKey };
}
