import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, type Config } from '../config';

const SecretsFileSchema = z.object({
  sessionSecret: z.string({ message: 'is missing' }).min(32, 'must be at least 32 characters'),
  encryptionKey: z
    .string({ message: 'is missing' })
    .regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hexadecimal characters'),
});
export type Secrets = z.infer<typeof SecretsFileSchema>;

/**
 * A damaged secrets file is the operator's to repair, not a crash: one readable problem line. Replacing it
 * silently would sign everyone out and leave data encrypted with the old key unreadable.
 */
function readSecretsFile(file: string): Secrets {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError([
      `${file} is not valid JSON (${(err as Error).message}); restore it from a backup or set SESSION_SECRET and ENCRYPTION_KEY`,
    ]);
  }
  const result = SecretsFileSchema.safeParse(parsed);
  if (!result.success) {
    const fields = result.error.issues
      .map((issue) => `${issue.path.join('.') || 'the file'} ${issue.message}`)
      .join(', ');
    throw new ConfigError([
      `${file} is not valid (${fields}); restore it from a backup or set SESSION_SECRET and ENCRYPTION_KEY`,
    ]);
  }
  return result.data;
}

/**
 * Secrets come from the environment; outside production, missing ones are generated once into the gitignored
 * data folder (mode 0600) so that a laptop needs no set-up and restarts keep sessions valid.
 * Production requires them from the environment (config validation enforces it).
 */
export function loadSecrets(config: Config): Secrets {
  if (config.sessionSecret && config.encryptionKey)
    return { sessionSecret: config.sessionSecret, encryptionKey: config.encryptionKey.toLowerCase() };
  const file = join(config.dataDir, 'secrets.json');
  let stored: Secrets | undefined;
  if (existsSync(file)) stored = readSecretsFile(file);
  if (!stored) {
    stored = { sessionSecret: randomBytes(32).toString('base64url'), encryptionKey: randomBytes(32).toString('hex') };
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return {
    sessionSecret: config.sessionSecret ?? stored.sessionSecret,
    encryptionKey: config.encryptionKey?.toLowerCase() ?? stored.encryptionKey,
  };
}
