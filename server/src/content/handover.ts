import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { previewKey } from './preview';

/** Files in the portal's data folder through which the CMS hands over its API token and webhook secret. */
export const TOKEN_FILE_NAME = 'cms-api-token';
export const WEBHOOK_SECRET_FILE_NAME = 'cms-webhook-secret';

export const tokenFile = (dataDir: string) => join(dataDir, TOKEN_FILE_NAME);
export const webhookSecretFile = (dataDir: string) => join(dataDir, WEBHOOK_SECRET_FILE_NAME);

/**
 * The CMS API token: CMS_TOKEN if set, else the file the CMS bootstrap writes. The file may appear after the
 * portal started and is rewritten when the CMS regenerates the token, so it is read when no token is known
 * and re-read when the CMS answers 401. The token stays in memory only: never logged, never sent to browsers.
 */
export class CmsTokenSource {
  private cached: string | undefined;

  constructor(
    private readonly configured: string | undefined,
    private readonly file: string,
  ) {}

  /** True when the token comes from the handover file (a 401 is then worth a re-read). */
  get rereadable(): boolean {
    return !this.configured;
  }

  async current(): Promise<string | undefined> {
    if (this.configured) return this.configured;
    return this.cached ?? this.reload();
  }

  async reload(): Promise<string | undefined> {
    if (this.configured) return this.configured;
    try {
      const value = (await readFile(this.file, 'utf8')).trim();
      this.cached = value || undefined;
    } catch {
      this.cached = undefined;
    }
    return this.cached;
  }
}

function readTrimmed(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Blocks the thread briefly (start-up only): the CMS may have created the file a moment before writing it. */
function pause(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Reads the shared webhook secret, or creates it when this process comes first: created atomically with
 * `wx` (fails with EEXIST if the CMS won the race) and mode 0600; on EEXIST the other side's value is read.
 */
export function readOrCreateWebhookSecret(file: string): string {
  mkdirSync(dirname(file), { recursive: true });
  const fresh = randomBytes(32).toString('base64url');
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeSync(fd, `${fresh}\n`);
    } finally {
      closeSync(fd);
    }
    return fresh;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // The other side opened the file and may not have written it yet.
  for (let attempt = 0; attempt < 40; attempt++) {
    const value = readTrimmed(file);
    if (value) return value;
    pause(50);
  }
  throw new Error(`the webhook secret file ${file} exists but stays empty`);
}

/** Compares secrets in constant time, whatever their lengths (both sides are hashed first). */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/**
 * The webhook secret: CMS_WEBHOOK_SECRET if set, else the shared file, read once when the portal starts (never per
 * request: a webhook call costs no disk access, and a secret changed on disk takes effect on restart).
 */
export class WebhookSecret {
  private readonly value: string;

  constructor(configured: string | undefined, file: string) {
    this.value = configured ?? readOrCreateWebhookSecret(file);
  }

  /** The key of the editors' preview links, derived from this secret (preview.ts). */
  previewKey(): Buffer {
    return previewKey(this.value);
  }

  verify(given: unknown): boolean {
    if (typeof given !== 'string' || given.length === 0 || given.length > 512) return false;
    return secretsEqual(given, this.value);
  }
}
