import { describe, expect, it, vi } from 'vitest';
import { recordAudit } from '../src/platform/audit';
import { enqueueEmail } from '../src/platform/mail/outbox';
import { BENCH_GC_PATH, startMetricsServer } from '../src/platform/metrics';
import { buildTestApp, callAs, testConfig } from './helpers';

/** One sample's value from Prometheus text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics port', () => {
  it('serves Prometheus text on its own loopback port: requests by route and status, logins, rate limits, jobs, outbox, event loop', async () => {
    const { app } = await buildTestApp({ config: testConfig({ LOGIN_ATTEMPTS_PER_MINUTE: '2' }) });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      await startMetricsServer(app);
      const address = app.metricsServer.address();
      expect(address).toMatchObject({ address: '127.0.0.1' });
      const portalPort = (app.server.address() as { port: number }).port;
      expect(address!.port).not.toBe(portalPort);

      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const client = { ip: '10.9.0.1' };
      const login = { username: 'nobody.here', password: 'not the right password at all' };
      for (let i = 0; i < 3; i++) await callAs(app, client, 'POST', '/api/auth/login', login);
      // The other counted audit actions, and one that counts nowhere.
      for (const action of ['login.mfa_failed', 'account.locked', 'registration.authority.locked', 'login.succeeded'])
        await recordAudit(app.database.db, { actor: null, action, outcome: 'failure' });
      await enqueueEmail(app.database.db, {
        to: 'someone@example.com',
        template: 'username-reminder',
        data: { usernames: ['someone'] },
      });
      expect(await app.jobs.runOnce('rate-limit-cleanup')).toBe(true);

      // The portal's own port does not serve them.
      const onPortal = await fetch(`http://127.0.0.1:${portalPort}/metrics`);
      expect(onPortal.status).not.toBe(200);
      expect(await onPortal.text()).not.toContain('portal_http_request_duration_seconds');
      const res = await fetch(`http://127.0.0.1:${address!.port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await res.text();

      // Route patterns, not URLs; the status of each answer.
      expect(
        sample(text, 'portal_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}'),
      ).toBe(1);
      expect(
        sample(text, 'portal_http_request_duration_seconds_count{method="POST",route="/api/auth/login",status="401"}'),
      ).toBe(2);
      expect(
        sample(text, 'portal_http_request_duration_seconds_count{method="POST",route="/api/auth/login",status="429"}'),
      ).toBe(1);
      expect(
        sample(text, 'portal_http_request_duration_seconds_bucket{le="15",method="GET",route="/healthz",status="200"}'),
      ).toBe(1);
      expect(sample(text, 'portal_login_failures_total{step="password"}')).toBe(2);
      expect(sample(text, 'portal_login_failures_total{step="mfa"}')).toBe(1);
      expect(sample(text, 'portal_lockouts_total{kind="account"}')).toBe(1);
      expect(sample(text, 'portal_lockouts_total{kind="authority"}')).toBe(1);
      expect(text.match(/^portal_(login_failures|lockouts)_total\{/gm)).toHaveLength(4);
      expect(sample(text, 'portal_rate_limit_rejections_total{route="/api/auth/login"}')).toBe(1);
      expect(sample(text, 'portal_job_runs_total{job="rate-limit-cleanup",outcome="ran"}')).toBe(1);
      expect(sample(text, 'portal_outbox_backlog')).toBe(1);
      expect(sample(text, 'portal_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
      for (const name of [
        'portal_lockouts_total',
        'portal_content_cache_hits_total',
        'portal_content_cache_stale_total',
        'portal_content_cache_misses_total',
        'portal_job_duration_seconds',
        'nodejs_eventloop_lag_p99_seconds',
        'process_resident_memory_bytes',
      ])
        expect(text).toContain(`# TYPE ${name} `);
      expect(sample(text, 'portal_content_cache_hits_total{cache="content"}')).toBe(0);
      // Pool gauges are PostgreSQL's (TEST_DATABASE_URL); PGlite has no pool.
      if (app.database.kind === 'postgres') {
        expect(sample(text, 'portal_db_pool_connections{state="max"}')).toBe(4);
        expect(sample(text, 'portal_db_pool_waiting')).toBe(0);
        expect(sample(text, 'portal_db_pool_acquire_seconds_count')).toBeGreaterThan(0);
      } else {
        expect(text).not.toContain('portal_db_pool');
      }

      expect((await fetch(`http://127.0.0.1:${address!.port}/other`)).status).toBe(404);
    } finally {
      await app.close();
    }
    // Closed with the app.
    expect(app.metricsServer.address()).toBeUndefined();
  });

  it('METRICS_PORT=off serves no metrics port; bad values are refused', async () => {
    const { app } = await buildTestApp({ config: testConfig({ METRICS_PORT: 'off' }) });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      await startMetricsServer(app);
      expect(app.metricsServer.address()).toBeUndefined();
    } finally {
      await app.close();
    }
    expect(() => testConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT must be a port number/);
    expect(testConfig({}).metrics).toEqual({ port: 0, host: '127.0.0.1', benchGc: false });
    expect(testConfig({ METRICS_PORT: '' }).metrics.port).toBe(9464);
  });

  it('forces a GC and answers the memory at POST /bench/gc only with METRICS_BENCH_GC=true, on the metrics port alone', async () => {
    const gc = vi.fn();
    const saved = (globalThis as { gc?: () => void }).gc;
    (globalThis as { gc?: () => void }).gc = gc;
    const off = await buildTestApp({ config: testConfig() });
    const on = await buildTestApp({ config: testConfig({ METRICS_BENCH_GC: 'true' }) });
    try {
      for (const { app } of [off, on]) {
        await app.listen({ host: '127.0.0.1', port: 0 });
        await startMetricsServer(app);
      }
      const metricsUrl = (app: typeof on.app) =>
        `http://127.0.0.1:${app.metricsServer.address()!.port}${BENCH_GC_PATH}`;
      // Off by default: the metrics port knows no such path.
      expect((await fetch(metricsUrl(off.app), { method: 'POST' })).status).toBe(404);
      expect(gc).not.toHaveBeenCalled();
      // Never on the public port, setting or not.
      const portalPort = (on.app.server.address() as { port: number }).port;
      const onPortal = await fetch(`http://127.0.0.1:${portalPort}${BENCH_GC_PATH}`, { method: 'POST' });
      expect(onPortal.status).toBeGreaterThanOrEqual(400);
      expect(gc).not.toHaveBeenCalled();

      const res = await fetch(metricsUrl(on.app), { method: 'POST' });
      expect(res.status).toBe(200);
      expect(gc).toHaveBeenCalledTimes(1);
      const memory = (await res.json()) as Record<string, number>;
      expect(memory.rssBytes).toBeGreaterThan(memory.heapUsedBytes!);
      expect(memory.heapUsedBytes).toBeGreaterThan(0);
      // A process started without --expose-gc cannot collect on demand: said so, not faked.
      (globalThis as { gc?: () => void }).gc = undefined;
      expect((await fetch(metricsUrl(on.app), { method: 'POST' })).status).toBe(501);
    } finally {
      (globalThis as { gc?: () => void }).gc = saved;
      await off.app.close();
      await on.app.close();
    }
  });
});
