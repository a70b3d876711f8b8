import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/client';
import { onAuditRecorded, type AuditEvent } from './audit';
import { rowsOf } from './db-executor';

/** Where the Prometheus text is served on the metrics port (docs/decisions/0033-openapi-metrics-deployment.md). */
export const METRICS_PATH = '/metrics';
/** Benchmarks only (METRICS_BENCH_GC=true, bench/gates/soak.ts): forces a GC and answers the memory after it. */
export const BENCH_GC_PATH = '/bench/gc';

/** Counters a component keeps as plain numbers (no prom-client on its hot path), read at scrape time. */
export interface CacheCounts {
  hits: number;
  stale: number;
  misses: number;
}

/**
 * A counter of audit events, declared by the layer that owns the actions (identity/audit-metrics.ts): each listed
 * action adds one under its label's value; an action no counter lists is not counted.
 */
export interface AuditCounter {
  name: string;
  help: string;
  label: string;
  /** Audit action → the label's value it counts under. */
  actions: Readonly<Record<string, string>>;
}

/** Latency buckets in seconds: cached reads take ~0.1–1 ms, logins ~50–500 ms (argon2id), timeouts 15 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15];

/**
 * The portal's Prometheus metrics, one registry per app (tests build several apps in one process). Counters fed
 * from one place each: requests from an onResponse hook, the declared audit counters from the audit writer, rate-limit
 * rejections from the error handler, jobs from the job runner; the rest is read when scraped.
 */
export class PortalMetrics {
  readonly registry = new Registry();
  private readonly requestDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly rateLimited: Counter<'route'>;
  /** Audit action → its counter and label value. */
  private readonly auditCounts = new Map<string, { counter: Counter<string>; labels: Record<string, string> }>();
  private readonly jobRuns: Counter<'job' | 'outcome'>;
  private readonly jobDuration: Histogram<'job'>;
  private readonly caches = new Map<string, CacheCounts>();
  private stopAudit: (() => void) | undefined;
  private stopPoolWatch: (() => void) | undefined;

  constructor(
    private readonly database: DatabaseHandle,
    auditCounters: readonly AuditCounter[] = [],
  ) {
    const registers = [this.registry];
    // Process metrics, event-loop delay (nodejs_eventloop_lag_*) and heap among them.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    this.requestDuration = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time to answer a request, by method, route pattern (not the URL) and status; _count is the request count.',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.rateLimited = new Counter({
      name: 'portal_rate_limit_rejections_total',
      help: 'Requests refused with 429 Too_Many_Requests by a rate limit, by route pattern.',
      labelNames: ['route'],
      registers,
    });
    for (const { name, help, label, actions } of auditCounters) {
      const counter = new Counter({ name, help, labelNames: [label], registers });
      for (const [action, value] of Object.entries(actions)) {
        if (this.auditCounts.has(action)) throw new Error(`audit action ${action} is counted twice`);
        this.auditCounts.set(action, { counter, labels: { [label]: value } });
      }
    }
    this.jobRuns = new Counter({
      name: 'portal_job_runs_total',
      help: 'Periodic job runs on this instance by outcome: ran, skipped (another instance or interval) or failed.',
      labelNames: ['job', 'outcome'],
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'portal_job_duration_seconds',
      help: 'Duration of the job runs that did the work or failed.',
      labelNames: ['job'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
      registers,
    });
    const caches = this.caches;
    for (const [name, field, help] of [
      ['portal_content_cache_hits_total', 'hits', 'Content reads answered from a fresh cached copy.'],
      [
        'portal_content_cache_stale_total',
        'stale',
        'Content reads answered from a copy past its TTL or kept through a CMS outage.',
      ],
      ['portal_content_cache_misses_total', 'misses', 'Content reads that waited for the CMS.'],
    ] as const) {
      new Counter({
        name,
        help,
        labelNames: ['cache'],
        registers,
        collect() {
          this.reset();
          for (const [cache, counts] of caches) this.inc({ cache }, counts[field]);
        },
      });
    }
    // PostgreSQL's pool; embedded PGlite is one connection in this process, with nothing to wait for.
    if (database.poolStats) this.stopPoolWatch = this.poolMetrics(database, registers);
    const outbox = () => this.outboxSnapshot();
    new Gauge({
      name: 'portal_outbox_backlog',
      help: 'Emails queued and not yet sent.',
      registers,
      async collect() {
        const row = await outbox();
        if (row) this.set(row.backlog);
      },
    });
    // Data-feed imports run in the command's process as well as the server's: counted from import_runs when scraped,
    // so every instance shows every run (docs/requirements/data-feeds.md#metrics).
    const db = database.db;
    new Gauge({
      name: 'portal_feed_import_runs',
      help: 'Data-feed import runs recorded in import_runs, by kind and outcome.',
      labelNames: ['kind', 'outcome'],
      registers,
      async collect() {
        const rows = rowsOf<{ kind: string; outcome: string; n: number }>(
          await db.execute(sql`select kind, outcome, count(*)::int as n from import_runs group by kind, outcome`),
        );
        this.reset();
        for (const row of rows) this.set({ kind: row.kind, outcome: row.outcome }, row.n);
      },
    });
    new Gauge({
      name: 'portal_feed_import_rows',
      help: 'Rows of the data-feed runs that succeeded, by kind and what became of them (read, inserted, updated, end_dated, rejected).',
      labelNames: ['kind', 'action'],
      registers,
      async collect() {
        const rows = rowsOf<Record<string, string | number>>(
          await db.execute(
            sql`select kind, sum(rows_read)::float8 as read, sum(rows_inserted)::float8 as inserted,
                  sum(rows_updated)::float8 as updated, sum(rows_end_dated)::float8 as end_dated,
                  sum(rows_rejected)::float8 as rejected
                from import_runs where outcome = 'succeeded' group by kind`,
          ),
        );
        this.reset();
        for (const row of rows)
          for (const action of ['read', 'inserted', 'updated', 'end_dated', 'rejected'])
            this.set({ kind: String(row.kind), action }, Number(row[action]));
      },
    });
    new Gauge({
      name: 'portal_outbox_oldest_age_seconds',
      help: 'Age of the oldest unsent email (0 when none is waiting).',
      registers,
      async collect() {
        const row = await outbox();
        if (row) this.set(row.oldestAgeSeconds);
      },
    });
  }

  private poolMetrics(database: DatabaseHandle, registers: Registry[]): (() => void) | undefined {
    const pool = () => database.poolStats?.();
    new Gauge({
      name: 'portal_db_pool_connections',
      help: 'PostgreSQL pool connections by state (in_use, idle) and its max.',
      labelNames: ['state'],
      registers,
      collect() {
        const stats = pool();
        if (!stats) return;
        this.set({ state: 'in_use' }, stats.total - stats.idle);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'max' }, stats.max);
      },
    });
    new Gauge({
      name: 'portal_db_pool_waiting',
      help: 'Queries waiting for a free PostgreSQL pool connection (pool exhausted when above 0 for long).',
      registers,
      collect() {
        const stats = pool();
        if (stats) this.set(stats.waiting);
      },
    });
    const acquire = new Histogram({
      name: 'portal_db_pool_acquire_seconds',
      help: 'Time a query waited for a PostgreSQL pool connection.',
      buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers,
    });
    return database.onPoolAcquire?.((seconds) => acquire.observe(seconds));
  }

  private outboxPending: Promise<OutboxRow | undefined> | undefined;

  /** One outbox query per scrape, shared by both outbox gauges. */
  private outboxSnapshot(): Promise<OutboxRow | undefined> {
    this.outboxPending ??= (async () => {
      try {
        const [row] = rowsOf<{ backlog: number; oldest: number | null }>(
          await this.database.db.execute(
            sql`select count(*)::int as backlog, extract(epoch from now() - min(created_at))::float8 as oldest from outbox where sent_at is null`,
          ),
        );
        return { backlog: Number(row?.backlog ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)) };
      } catch {
        return undefined;
      } finally {
        setImmediate(() => (this.outboxPending = undefined));
      }
    })();
    return this.outboxPending;
  }

  /** A cache whose counts are reported under `cache="<name>"`. */
  trackCache(name: string, counts: CacheCounts): void {
    this.caches.set(name, counts);
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requestDuration.observe({ method, route, status }, seconds);
  }

  rateLimitRejected(route: string): void {
    this.rateLimited.inc({ route });
  }

  jobFinished(job: string, outcome: 'ran' | 'skipped' | 'failed', seconds: number): void {
    this.jobRuns.inc({ job, outcome });
    if (outcome !== 'skipped') this.jobDuration.observe({ job }, seconds);
  }

  /** Counts an audit event under the counter that declared its action, if any. */
  auditRecorded(event: AuditEvent): void {
    const count = this.auditCounts.get(event.action);
    count?.counter.inc(count.labels);
  }

  listenToAudit(): void {
    this.stopAudit ??= onAuditRecorded((event) => this.auditRecorded(event));
  }

  close(): void {
    this.stopAudit?.();
    this.stopAudit = undefined;
    this.stopPoolWatch?.();
    this.registry.clear();
  }
}

interface OutboxRow {
  backlog: number;
  oldestAgeSeconds: number;
}

/** The metrics port: `GET /metrics` only, nothing else; bound to METRICS_HOST (127.0.0.1 by default). */
export class MetricsServer {
  private server: Server | undefined;

  constructor(
    private readonly metrics: PortalMetrics,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts listening; a port already taken is logged, not fatal: the portal serves people first. */
  async listen(host: string, port: number, { benchGc = false }: { benchGc?: boolean } = {}): Promise<void> {
    const server = createServer((request, response) => {
      const path = (request.url ?? '').split('?', 1)[0];
      if (benchGc && request.method === 'POST' && path === BENCH_GC_PATH) {
        benchGarbageCollection(response);
        return;
      }
      if (request.method !== 'GET' || path !== METRICS_PATH) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      this.metrics.registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': this.metrics.registry.contentType }).end(text),
        (err: unknown) => {
          this.log.error({ err }, 'metrics scrape failed');
          response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
        },
      );
    });
    await new Promise<void>((resolve) => {
      server.once('error', (err) => {
        this.log.error({ err, host, port }, 'metrics port unavailable: metrics are not served');
        resolve();
      });
      server.listen({ host, port }, () => {
        this.server = server;
        const address = server.address() as AddressInfo;
        this.log.info({ host: address.address, port: address.port }, 'metrics served at /metrics');
        resolve();
      });
    });
  }

  address(): AddressInfo | undefined {
    return (this.server?.address() as AddressInfo | null) ?? undefined;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A full GC (node --expose-gc) and the memory after it, as JSON; 501 when the process cannot be asked to collect. */
function benchGarbageCollection(response: ServerResponse): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    response.writeHead(501, { 'content-type': 'text/plain' }).end('start node with --expose-gc\n');
    return;
  }
  gc();
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  response
    .writeHead(200, { 'content-type': 'application/json' })
    .end(
      JSON.stringify({ rssBytes: rss, heapUsedBytes: heapUsed, heapTotalBytes: heapTotal, externalBytes: external }),
    );
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: PortalMetrics;
    metricsServer: MetricsServer;
  }
}

/**
 * Request metrics by route pattern (`/api/content/*`, never the URL: bounded labels) and status, and the metrics
 * server (started by `startMetricsServer` once the portal listens). Registered before every route so the onResponse
 * hook covers them all.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { database: DatabaseHandle; auditCounters?: readonly AuditCounter[] }) => {
    const metrics = new PortalMetrics(options.database, options.auditCounters);
    metrics.listenToAudit();
    const server = new MetricsServer(metrics, app.log);
    app.decorate('metrics', metrics);
    app.decorate('metricsServer', server);
    app.addHook('onResponse', (request, reply, done) => {
      metrics.observeRequest(
        request.method,
        request.routeOptions.url ?? '(unmatched)',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
    app.addHook('onClose', async () => {
      await server.close();
      metrics.close();
    });
  },
  { name: 'portal-metrics' },
);

/** Opens the metrics port of the settings (none when METRICS_PORT=off); closed with the app. */
export async function startMetricsServer(app: FastifyInstance): Promise<void> {
  const { host, port, benchGc } = app.config.metrics;
  if (port !== null) await app.metricsServer.listen(host, port, { benchGc });
}
