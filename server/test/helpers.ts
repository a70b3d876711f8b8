import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, RouteOptions } from 'fastify';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { SESSION_COOKIE } from '@portal/contracts/auth';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import type { ContentLimits } from '../src/content/plugin';
import { openPglite, openPostgres, type DatabaseHandle } from '../src/db/client';
import { currentTotp } from '../src/identity/mfa/totp';
import { createSession } from '../src/identity/sessions/store';

/** A fresh, migrated database for one test file: a copy of the PGlite template, or a database cloned from the PostgreSQL template. */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const pgTemplate = inject('postgresTemplate');
  if (pgTemplate) {
    const name = `portal_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgTemplate.url });
    await admin.connect();
    await admin.query(`create database ${name} template ${pgTemplate.database}`);
    await admin.end();
    const url = new URL(pgTemplate.url);
    url.pathname = `/${name}`;
    const handle = openPostgres(url.toString(), 4);
    const close = handle.close;
    handle.close = async () => {
      await close();
      const cleanup = new pg.Client({ connectionString: pgTemplate.url });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name}`);
      await cleanup.end();
    };
    return handle;
  }
  const dir = mkdtempSync(join(tmpdir(), 'portal-test-db-'));
  cpSync(inject('pgliteTemplateDir'), dir, { recursive: true });
  const handle = await openPglite(dir);
  const close = handle.close;
  handle.close = async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  };
  return handle;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-test-data-'));
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    SEED_DEMO_DATA: 'false',
    PUBLIC_URL: 'http://localhost:3000',
    // A listening test app takes any free metrics port: test files run in parallel.
    METRICS_PORT: '0',
    ...overrides,
  });
}

/**
 * `testConfig` for tests that move the clock through the re-authentication window: sessions idle out after 120 minutes
 * (prompted 5 before) and end after 600, so only the 20-minute re-authentication rule is met on the way.
 */
export function longSessionsConfig(overrides: Record<string, string> = {}): Config {
  return testConfig({
    SESSION_IDLE_MS: String(120 * 60_000),
    SESSION_PROMPT_BEFORE_IDLE_MS: String(5 * 60_000),
    SESSION_ABSOLUTE_MS: String(600 * 60_000),
    ...overrides,
  });
}

/** The security questions the test apps' CMS lists: the CMS seed's keys (cms/src/seed/content.js). */
export const TEST_SECURITY_QUESTION_KEYS = [
  'childhood-street',
  'first-car',
  'first-school',
  'parents-met-city',
  'first-employer',
  'childhood-nickname',
  'oldest-sibling-middle-name',
];

/** Builds the app on a fresh database and captures its log lines, so tests can assert what was (not) logged. */
export async function buildTestApp(
  options: {
    config?: Config;
    database?: DatabaseHandle;
    extraRoutes?: (app: FastifyInstance) => void;
    onRoute?: (route: RouteOptions) => void;
    clock?: () => Date;
    contentLimits?: Partial<ContentLimits>;
    /** The CMS's security-question keys (default: TEST_SECURITY_QUESTION_KEYS, no CMS needed). */
    securityQuestionKeys?: () => Promise<readonly string[]>;
  } = {},
) {
  const database = options.database ?? (await createTestDatabase());
  const config = options.config ?? testConfig();
  const logStream = new PassThrough();
  const logLines: string[] = [];
  logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const app = await buildApp({
    config,
    database,
    logStream,
    onRoute: options.onRoute,
    clock: options.clock,
    contentLimits: options.contentLimits,
    securityQuestionKeys: options.securityQuestionKeys ?? (async () => TEST_SECURITY_QUESTION_KEYS),
  });
  app.addHook('onClose', async () => {
    await database.close();
    rmSync(config.dataDir, { recursive: true, force: true });
  });
  options.extraRoutes?.(app);
  await app.ready();
  return { app, database, config, logLines };
}

/** Headers a same-origin SPA call carries. */
export const portalHeaders = { 'x-portal-request': '1', origin: 'http://localhost:3000' } as const;

/** A caller of the portal: its address and the session cookie it holds (kept up to date by `callAs`). */
export interface TestClient {
  ip: string;
  cookie?: string;
}

/**
 * One call as `client`: a same-origin SPA call from its address with its session cookie; a session cookie in the
 * answer (a new id, or a cleared one) replaces the client's, as a browser would.
 */
export async function callAs(
  app: FastifyInstance,
  client: TestClient,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) {
  const res = await app.inject({
    method,
    url,
    remoteAddress: client.ip,
    headers: {
      ...portalHeaders,
      ...headers,
      ...(client.cookie ? { cookie: `${SESSION_COOKIE}=${client.cookie}` } : {}),
    },
    ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
  });
  const set = res.cookies.find((c) => c.name === SESSION_COOKIE);
  if (set) client.cookie = set.value || undefined;
  return res;
}

/** The CMS's publish webhook as the CMS sends it: with the secret the CMS handed over in the data folder. */
export function sendContentWebhook(
  ctx: { app: FastifyInstance; config: Config },
  payload: object = { event: 'entry.update' },
) {
  const secret = readFileSync(join(ctx.config.dataDir, 'cms-webhook-secret'), 'utf8').trim();
  return ctx.app.inject({
    method: 'POST',
    url: '/api/content/webhook',
    headers: { 'x-webhook-secret': secret },
    payload,
  });
}

/** A clock a test moves by hand (the app's injectable `clock`), starting at a fixed instant. */
export function testClock(start = Date.parse('2026-11-23T09:00:00Z')) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => void (now += ms) };
}

/** A clock as `testClock` makes it. */
export type TestClock = ReturnType<typeof testClock>;

/**
 * Logs `client` in as the browser does: the password step, then the current TOTP code of `login.secret`. The clock
 * first moves on to the next 30-second step, since a code is accepted once. `headers` go with both calls (e.g. a
 * User-Agent).
 */
export async function logInWithTotp(
  app: FastifyInstance,
  clock: TestClock,
  client: TestClient,
  login: { username: string; password: string; secret: string },
  headers: Record<string, string> = {},
): Promise<void> {
  clock.advance(31_000);
  const { username, password } = login;
  const first = await callAs(app, client, 'POST', '/api/auth/login', { username, password }, headers);
  expect(first.json()).toEqual({ data: { next: 'mfa' } });
  const code = await currentTotp(login.secret, clock.now());
  const second = await callAs(app, client, 'POST', '/api/auth/mfa', { code }, headers);
  expect(second.json()).toEqual({ data: { loggedIn: true } });
}

/**
 * Another logged-in session of the user (another browser, or a stolen one), made in the table: freshly authenticated
 * unless `client.authenticatedAt` says when.
 */
export async function otherSession(
  app: FastifyInstance,
  clock: TestClock,
  userId: string,
  client: { ip: string; userAgent?: string; authenticatedAt?: Date },
): Promise<TestClient> {
  const now = clock.now();
  const id = await createSession(app.database.db, {
    userId,
    stage: 'active',
    now,
    limits: app.config.sessions,
    authenticatedAt: client.authenticatedAt ?? now,
    userAgent: client.userAgent,
  });
  return { ip: client.ip, cookie: id };
}
