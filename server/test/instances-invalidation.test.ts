import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { openPglite, openPostgres, type DatabaseHandle } from '../src/db/client';
import { testConfig } from './helpers';
import { json, startFakeUpstream } from './support/fake-upstream';

/**
 * Several instances on one database: the CMS webhook reaches one of them, and every other drops its cached content
 * within a second (PostgreSQL LISTEN/NOTIFY). Each instance has a long cache TTL, so without the broadcast the other
 * instance would go on serving its copy.
 */

const WEBHOOK_SECRET = 'instances-webhook-secret-7c1d9e';
const topicsPath = '/api/content/topics?populate=*';

interface Instance {
  app: FastifyInstance;
  logLines: string[];
}

async function startInstance(database: DatabaseHandle, cmsUrl: string): Promise<Instance> {
  const config = testConfig({
    CMS_URL: cmsUrl,
    CMS_TOKEN: 'fake-token',
    CMS_WEBHOOK_SECRET: WEBHOOK_SECRET,
    CONTENT_CACHE_TTL_MS: '600000',
  });
  const logStream = new PassThrough();
  const logLines: string[] = [];
  logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const app = await buildApp({ config, database, logStream });
  app.addHook('onClose', async () => rmSync(config.dataDir, { recursive: true, force: true }));
  await app.ready();
  return { app, logLines };
}

/** Two instances reading one CMS whose topic title the test changes. */
function scenario(
  openDatabases: () => Promise<{ databases: [DatabaseHandle, DatabaseHandle]; close: () => Promise<void> }>,
) {
  let title = 'Before the edit';
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let first: Instance;
  let second: Instance;
  let closeDatabases: () => Promise<void>;

  const titleServedBy = async (instance: Instance) => {
    const res = await instance.app.inject(topicsPath);
    expect(res.statusCode).toBe(200);
    return (res.json() as { data: { attributes: { title: string } }[] }).data[0]!.attributes.title;
  };
  const webhook = (instance: Instance) =>
    instance.app.inject({
      method: 'POST',
      url: '/api/content/webhook',
      headers: { 'x-webhook-secret': WEBHOOK_SECRET, 'content-type': 'application/json' },
      payload: { event: 'entry.publish', model: 'topic' },
    });

  beforeAll(async () => {
    upstream = await startFakeUpstream((_req, res) =>
      json(res, 200, { data: [{ id: 1, attributes: { title, slug: 'contact' } }], meta: {} }),
    );
    const opened = await openDatabases();
    closeDatabases = opened.close;
    first = await startInstance(opened.databases[0], upstream.url);
    second = await startInstance(opened.databases[1], upstream.url);
  });
  afterAll(async () => {
    await first?.app.close();
    await second?.app.close();
    await closeDatabases?.();
    await upstream?.close();
  });

  it('a publish webhook sent to one instance changes what the other serves within one second', async () => {
    title = 'Before the edit';
    expect(await titleServedBy(first)).toBe('Before the edit');
    expect(await titleServedBy(second)).toBe('Before the edit');
    title = 'After the edit';
    // Both serve their cached copies until told.
    expect(await titleServedBy(second)).toBe('Before the edit');

    expect((await webhook(first)).statusCode).toBe(204);
    expect(await titleServedBy(first)).toBe('After the edit');
    await vi.waitFor(async () => expect(await titleServedBy(second)).toBe('After the edit'), {
      timeout: 1000,
      interval: 20,
    });
    await vi.waitFor(() => expect(second.logLines.join('\n')).toContain('another instance received the CMS webhook'));
    // The instance that received the webhook does not hear its own message as news.
    expect(first.logLines.join('\n')).not.toContain('another instance received the CMS webhook');
  });

  it('works the other way round too', async () => {
    title = 'Second edit';
    expect((await webhook(second)).statusCode).toBe(204);
    await vi.waitFor(async () => expect(await titleServedBy(first)).toBe('Second edit'), {
      timeout: 1000,
      interval: 20,
    });
  });

  return {
    instances: () => [first, second] as const,
    setTitle: (next: string) => (title = next),
    titleServedBy,
    webhook,
  };
}

// PGlite is one connection in one process: two app instances share it, as two instances share a PostgreSQL server.
describe('two instances on one embedded PGlite database', () => {
  scenario(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-test-db-'));
    cpSync(inject('pgliteTemplateDir'), dir, { recursive: true });
    const database = await openPglite(dir);
    return {
      databases: [database, database],
      close: async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describe.runIf(inject('postgresTemplate'))(
  'two instances on one PostgreSQL database (separate pools and listening connections)',
  () => {
    const template = inject('postgresTemplate')!;
    const name = `portal_invalidation_${randomBytes(6).toString('hex')}`;
    const url = new URL(template?.url ?? 'postgres://unused');
    url.pathname = `/${name}`;

    const { instances, setTitle, titleServedBy, webhook } = scenario(async () => {
      const admin = new pg.Client({ connectionString: template.url });
      await admin.connect();
      await admin.query(`create database ${name} template ${template.database}`);
      await admin.end();
      const databases: [DatabaseHandle, DatabaseHandle] = [
        openPostgres(url.toString(), 2),
        openPostgres(url.toString(), 2),
      ];
      return {
        databases,
        close: async () => {
          for (const database of databases) await database.close();
          const cleanup = new pg.Client({ connectionString: template.url });
          await cleanup.connect();
          await cleanup.query(`drop database if exists ${name} with (force)`);
          await cleanup.end();
        },
      };
    });

    it('a listening connection that drops reconnects, invalidates (it may have missed a webhook) and hears the next one', async () => {
      const [first, second] = instances();
      setTitle('Before the outage');
      const admin = new pg.Client({ connectionString: url.toString() });
      await admin.connect();
      try {
        await webhook(first);
        await vi.waitFor(async () => expect(await titleServedBy(second)).toBe('Before the outage'), {
          timeout: 1000,
          interval: 20,
        });
        setTitle('Edited during the outage');
        // What a database restart does to the listening connections.
        const { rowCount } = await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'",
        );
        expect(rowCount).toBe(2);
        await vi.waitFor(async () => expect(await titleServedBy(second)).toBe('Edited during the outage'), {
          timeout: 5000,
          interval: 50,
        });
        await vi.waitFor(() =>
          expect(second.logLines.join('\n')).toContain('listening for content invalidations again'),
        );
        expect(second.logLines.join('\n')).toContain('the connection listening for content invalidations failed');

        setTitle('After the outage');
        expect((await webhook(first)).statusCode).toBe(204);
        await vi.waitFor(async () => expect(await titleServedBy(second)).toBe('After the outage'), {
          timeout: 1000,
          interval: 20,
        });
      } finally {
        await admin.end();
      }
    });
  },
);
