import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { clientKeyOfAddress } from '../src/platform/rate-limit';
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
    let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
    try {
      await a.app.listen({ host: '127.0.0.1', port: 0 });
      await b.listen({ host: '127.0.0.1', port: 0 });
      const ports = [a.app, b].map((app) => (app.server.address() as { port: number }).port);
      const webDist = join(dir, 'web-dist');
      mkdirSync(join(webDist, 'assets'), { recursive: true });
      const script = 'console.log("portal");\n'.repeat(50);
      writeFileSync(join(webDist, 'assets', 'index-Ab12Cd34.js'), script);
      writeFileSync(join(webDist, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(script));
      nginx = await startNginx(dir, ports, {});
      const { base, listen } = nginx;

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
      await nginx?.stop();
      await b.close();
      await a.app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** `count` connections from this host, each sending `head` and then nothing more; what became of each. */
async function halfSentRequests(port: number, count: number, head: string) {
  const sockets: { socket: Socket; closed: boolean; received: string }[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const entry = { socket: connect(port, '127.0.0.1'), closed: false, received: '' };
          entry.socket.setEncoding('utf8');
          entry.socket.on('data', (chunk: string) => (entry.received += chunk));
          entry.socket.on('close', () => (entry.closed = true));
          entry.socket.on('error', () => {});
          entry.socket.once('connect', () => {
            entry.socket.write(head);
            resolve();
          });
          entry.socket.once('error', reject);
          sockets.push(entry);
        }),
    ),
  );
  return {
    open: () => sockets.filter((s) => !s.closed).length,
    /** Still open without an answer. */
    held: () => sockets.filter((s) => !s.closed && !s.received).length,
    answered: (status: number) => sockets.filter((s) => s.received.startsWith(`HTTP/1.1 ${status} `)),
    destroy: () => sockets.forEach((s) => s.socket.destroy()),
  };
}

/**
 * Renders deploy/nginx for `upstreams` into `dir` with `env` (the PORTAL_NGINX_* variables), checks and starts it;
 * `serverLines` go at the top of the server block (a test's own additions).
 */
async function startNginx(dir: string, upstreams: number[], env: Record<string, string>, serverLines: string[] = []) {
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
      upstreams.map((p) => `127.0.0.1:${p}`).join(','),
      '--web-dist',
      join(dir, 'web-dist'),
    ],
    { encoding: 'utf8', env: { ...process.env, ...env } },
  );
  expect(render.status, render.stderr).toBe(0);
  const portalConf = join(dir, 'nginx', 'portal.conf');
  writeFileSync(
    portalConf,
    readFileSync(portalConf, 'utf8').replace(
      /(\n {4}server_name [^\n]*\n)/,
      `$1${serverLines.map((l) => `    ${l}\n`).join('')}`,
    ),
  );
  const conf = join(dir, 'nginx', 'nginx.conf');
  const check = spawnSync(nginxBinary!, ['-t', '-p', join(dir, 'nginx'), '-c', conf], { encoding: 'utf8' });
  expect(check.status, check.stderr).toBe(0);
  const nginx = spawn(nginxBinary!, ['-p', join(dir, 'nginx'), '-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${listen}`;
  await waitForAnswer(`${base}/healthz`);
  return {
    base,
    listen,
    async stop() {
      if (nginx.exitCode !== null) return;
      const exited = new Promise((r) => nginx.once('exit', r));
      nginx.kill('SIGTERM');
      await exited;
    },
  };
}

// Finding 10 of issue 36: behind nginx the portal's per-address connection cap and request deadline stopped applying
// (the proxy is exempt), and 300 half-sent requests from one address stayed open past 20 s under nginx's 60 s.
describe.runIf(nginxBinary)("deploy/: nginx keeps the portal's per-client limits, from the portal's settings", () => {
  it('cuts off half-sent requests at REQUEST_TIMEOUT_MS, caps one address at MAX_CONNECTIONS_PER_ADDRESS, limits /api/ calls', async () => {
    // Short figures so the test is quick; the production figures are the settings' defaults (15 s, 64).
    const settings = { REQUEST_TIMEOUT_MS: '2000', MAX_CONNECTIONS_PER_ADDRESS: '20' };
    const a = await buildTestApp({
      config: testConfig({ TRUST_PROXY: 'loopback', ...settings }),
      extraRoutes: whoAmI('a'),
    });
    const dir = mkdtempSync(join(tmpdir(), 'portal-nginx-limits-'));
    let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
    const clients: { destroy(): void }[] = [];
    try {
      await a.app.listen({ host: '127.0.0.1', port: 0 });
      const portalEnv = join(dir, 'portal.env');
      writeFileSync(
        portalEnv,
        Object.entries(settings)
          .map(([k, v]) => `${k}=${v}\n`)
          .join(''),
      );
      nginx = await startNginx(dir, [(a.app.server.address() as { port: number }).port], {
        PORTAL_NGINX_PORTAL_ENV: portalEnv,
        PORTAL_NGINX_API_RATE: '5r/s',
        PORTAL_NGINX_API_BURST: '10',
      });

      // 300 requests whose header never ends: all cut off at the deadline (2 s), none left open at 4 s.
      const headers = await halfSentRequests(nginx.listen, 300, 'GET /api/test-whoami HTTP/1.1\r\nHost: portal\r\n');
      clients.push(headers);
      await new Promise((r) => setTimeout(r, 4_000));
      expect(headers.open()).toBe(0);

      // 300 requests whose body never ends (to a page: /api/ calls would meet the rate limit first): 20 in progress at
      // most (the cap), the 280 others answered 429 at once in the portal's envelope; the 20 cut off at the deadline.
      const bodies = await halfSentRequests(
        nginx.listen,
        300,
        'POST /login HTTP/1.1\r\nHost: portal\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
      );
      clients.push(bodies);
      await new Promise((r) => setTimeout(r, 1_000));
      const refused = bodies.answered(429);
      expect(refused).toHaveLength(280);
      expect(refused[0]!.received).toContain('{"errorMessage":"Too_Many_Requests"}');
      expect(refused[0]!.received.toLowerCase()).toContain('retry-after: 1');
      await new Promise((r) => setTimeout(r, 2_500));
      expect(bodies.held()).toBe(0);
      // The refused ones are closed too once nginx stops waiting for the rest of their body (lingering_timeout, 5 s).
      await new Promise((r) => setTimeout(r, 3_500));
      expect(bodies.open()).toBe(0);

      // /api/ calls: 5 a second with bursts of 10 from one address, then 429; pages are not limited here.
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const res = await fetch(`${nginx.base}/api/test-whoami`);
        statuses.push(res.status);
        if (res.status === 429) expect(await res.json()).toEqual({ errorMessage: 'Too_Many_Requests' });
        else await res.arrayBuffer();
      }
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(11);
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(14);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(16);
      expect((await fetch(`${nginx.base}/healthz`)).status).toBe(200);
    } finally {
      for (const c of clients) c.destroy();
      await nginx?.stop();
      await a.app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.runIf(nginxBinary)('deploy/: nginx knows a client as the portal does', () => {
  it('keys its limits by the IPv4 address or the IPv6 /64, whichever zero groups nginx shortens', async () => {
    const a = await buildTestApp({ config: testConfig({ TRUST_PROXY: 'loopback' }), extraRoutes: whoAmI('a') });
    const dir = mkdtempSync(join(tmpdir(), 'portal-nginx-keys-'));
    let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
    try {
      await a.app.listen({ host: '127.0.0.1', port: 0 });
      // As behind a load balancer: the client's address from a header (realip), and, for this test only, the key.
      nginx = await startNginx(
        dir,
        [(a.app.server.address() as { port: number }).port],
        { PORTAL_NGINX_API_RATE: '1r/m', PORTAL_NGINX_API_BURST: '0' },
        [
          'set_real_ip_from 127.0.0.1;',
          'real_ip_header X-Client-Address;',
          'add_header X-Test-Client-Key $portal_client always;',
        ],
      );
      const from = (address: string, path = '/healthz') =>
        fetch(`${nginx!.base}${path}`, { headers: { 'x-client-address': address } });

      // Addresses with zero groups anywhere (nginx shortens the longest run to ::): the key is the portal's.
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const addresses = ['192.0.2.7', '::ffff:192.0.2.8', '::1', '::2941', '2001:db8::', '2001:0:0:1:2:3:4:5'];
      for (let i = 0; i < 120; i++)
        addresses.push(
          Array.from({ length: 8 }, () => (random() < 0.5 ? '0' : Math.floor(random() * 0x10000).toString(16))).join(
            ':',
          ),
        );
      const mismatches: string[] = [];
      for (const address of addresses) {
        const res = await from(address);
        await res.arrayBuffer();
        const key = res.headers.get('x-test-client-key');
        if (key !== clientKeyOfAddress(address))
          mismatches.push(`${address}: nginx ${key}, portal ${clientKeyOfAddress(address)}`);
      }
      expect(mismatches).toEqual([]);

      // One /api/ call a minute (no burst) per client: a second address of the same /64 is the same client.
      const statuses = [];
      for (const address of [
        '2001:db8:0:0:1:2:3:4', // nginx: 2001:db8::1:2:3:4
        '2001:db8::ffff', // the same /64
        '2001:0:0:1:2:3:4:5', // nginx: 2001::1:2:3:4:5
        '2001:0:0:1::9', // the same /64, shortened elsewhere
        '2001:db8:0:1::1', // another /64
        '198.51.100.1',
        '198.51.100.1',
        '198.51.100.2',
      ]) {
        const res = await from(address, '/api/test-whoami');
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses).toEqual([200, 429, 200, 429, 200, 200, 429, 200]);
    } finally {
      await nginx?.stop();
      await a.app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('deploy/render-nginx.mjs', () => {
  it("renders the portal's default limits when no settings file is given (the server's own defaults)", () => {
    const render = spawnSync(process.execPath, [join(repoRoot, 'deploy/render-nginx.mjs')], { encoding: 'utf8' });
    expect(render.status, render.stderr).toBe(0);
    const defaults = loadConfig({});
    expect(render.stdout).toContain(`client_header_timeout ${defaults.requestTimeoutMs}ms;`);
    expect(render.stdout).toContain(`client_body_timeout ${defaults.requestTimeoutMs}ms;`);
    expect(render.stdout).toContain(`limit_conn portal_connections_per_address ${defaults.maxConnectionsPerAddress};`);
  });

  it('refuses a settings file it cannot read or a bad value, with one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-render-'));
    try {
      const missing = spawnSync(
        process.execPath,
        [join(repoRoot, 'deploy/render-nginx.mjs'), '--portal-env', join(dir, 'none.env')],
        { encoding: 'utf8' },
      );
      expect(missing.status).toBe(1);
      expect(missing.stderr).toMatch(/^render-nginx: --portal-env: cannot read .*none\.env \(ENOENT\)\n$/);
      writeFileSync(join(dir, 'bad.env'), 'REQUEST_TIMEOUT_MS=soon\n');
      const bad = spawnSync(
        process.execPath,
        [join(repoRoot, 'deploy/render-nginx.mjs'), '--portal-env', join(dir, 'bad.env')],
        { encoding: 'utf8' },
      );
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain('REQUEST_TIMEOUT_MS must be a number of milliseconds');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
