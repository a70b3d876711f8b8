import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { buildTestApp, testConfig } from './helpers';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const nginxBinary = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForAnswer(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} never answered`);
}

/** Who answered and what the instance believed about the caller, for the checks below. */
function whoAmI(name: string) {
  return (app: FastifyInstance) => {
    app.get('/api/test-whoami', { schema: { hide: true } }, async (request) => ({
      instance: name,
      ip: request.ip,
      protocol: request.protocol,
      host: request.host,
      requestId: request.id,
    }));
    // What every instance answers while the shared database is down.
    app.get('/api/test-unavailable', { schema: { hide: true } }, async (_request, reply) =>
      reply.code(503).send({ errorMessage: 'Service_Unavailable' }),
    );
  };
}

// deploy/ run for real: nginx (Debian's package; CI installs it) rendered by deploy/render-nginx.mjs in front of two
// portal instances sharing one database, as docs/production.md runs it.
describe.runIf(nginxBinary)('deploy/: nginx in front of two portal instances', () => {
  it('balances both, passes X-Forwarded-* and X-Request-Id as TRUST_PROXY expects, serves hashed assets, and survives losing an instance', async () => {
    const config = testConfig({ TRUST_PROXY: 'loopback' });
    const a = await buildTestApp({ config, extraRoutes: whoAmI('a') });
    // The second instance shares the first one's database (one PostgreSQL for all, as in production).
    const b = await buildApp({ config, database: a.database });
    whoAmI('b')(b);
    const dir = mkdtempSync(join(tmpdir(), 'portal-nginx-'));
    let nginx: ChildProcess | undefined;
    try {
      await a.app.listen({ host: '127.0.0.1', port: 0 });
      await b.listen({ host: '127.0.0.1', port: 0 });
      const ports = [a.app, b].map((app) => (app.server.address() as { port: number }).port);
      const webDist = join(dir, 'web-dist');
      mkdirSync(join(webDist, 'assets'), { recursive: true });
      const script = 'console.log("portal");\n'.repeat(50);
      writeFileSync(join(webDist, 'assets', 'index-Ab12Cd34.js'), script);
      writeFileSync(join(webDist, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(script));
      const listen = await freePort();
      const render = spawnSync(
        process.execPath,
        [
          join(repoRoot, 'deploy/render-nginx.mjs'),
          '--standalone',
          join(dir, 'nginx'),
          '--listen',
          `127.0.0.1:${listen}`,
          '--upstreams',
          ports.map((p) => `127.0.0.1:${p}`).join(','),
          '--web-dist',
          webDist,
        ],
        { encoding: 'utf8' },
      );
      expect(render.status, render.stderr).toBe(0);
      const conf = join(dir, 'nginx', 'nginx.conf');
      const check = spawnSync(nginxBinary!, ['-t', '-p', join(dir, 'nginx'), '-c', conf], { encoding: 'utf8' });
      expect(check.status, check.stderr).toBe(0);
      nginx = spawn(nginxBinary!, ['-p', join(dir, 'nginx'), '-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
      const base = `http://127.0.0.1:${listen}`;
      await waitForAnswer(`${base}/healthz`);

      const seen = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${base}/api/test-whoami`, { headers: { 'x-request-id': 'chosen-by-the-client' } });
        expect(res.status).toBe(200);
        const body = (await res.json()) as Record<string, string>;
        seen.add(body.instance!);
        // The client's address from X-Forwarded-For, the scheme and host the client used.
        expect(body).toMatchObject({ ip: '127.0.0.1', protocol: 'http', host: `127.0.0.1:${listen}` });
        // nginx's request id reaches the instance, replaces the client's, and comes back.
        expect(body.requestId).toMatch(/^[0-9a-f]{32}$/);
        expect(res.headers.get('x-request-id')).toBe(body.requestId);
      }
      expect([...seen].sort()).toEqual(['a', 'b']);

      const asset = await fetch(`${base}/assets/index-Ab12Cd34.js`, { headers: { 'accept-encoding': 'gzip' } });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('content-encoding')).toBe('gzip');
      expect(await asset.text()).toBe(script);

      // The database down behind every instance: each answers 503 Service_Unavailable, and nginx passes that on
      // instead of leaving every instance out and answering its own 502 "no live upstreams" (decision 0037).
      const outage: number[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await fetch(`${base}/api/test-unavailable`);
        outage.push(res.status);
        if (res.status === 503) expect(await res.json()).toEqual({ errorMessage: 'Service_Unavailable' });
        else await res.arrayBuffer();
      }
      expect(outage).toEqual(Array(8).fill(503));
      expect((await fetch(`${base}/api/test-whoami`)).status).toBe(200);

      // One instance gone: every request still answered, by the other.
      await b.close();
      const after: number[] = [];
      const instances = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${base}/api/test-whoami`);
        after.push(res.status);
        if (res.ok) instances.add(((await res.json()) as { instance: string }).instance);
      }
      expect(after).toEqual([200, 200, 200, 200, 200, 200]);
      expect([...instances]).toEqual(['a']);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
    } finally {
      if (nginx && nginx.exitCode === null) {
        const exited = new Promise((r) => nginx!.once('exit', r));
        nginx.kill('SIGTERM');
        await exited;
      }
      await b.close();
      await a.app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
