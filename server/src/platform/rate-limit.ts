import { isIPv4, isIPv6 } from 'node:net';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import ipaddr from 'ipaddr.js';
import { lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';
import { rowsOf, type DbExecutor } from './db-executor';
import type { Job } from './jobs';

/**
 * The client a per-client limit counts against, from its address (docs/decisions/0032): an IPv4 address as it is; an
 * IPv6 address by its /64 (one subscriber's line or one host usually holds a whole /64, so counting single addresses
 * would give an attacker 2^64 budgets); an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack socket
 * reports for an IPv4 peer) as the IPv4 address. Every per-client rate limit and the connection cap use this key.
 */
export function clientKeyOfAddress(address: string): string {
  if (isIPv4(address)) return address;
  // Node's check decides what is an IPv6 address; a zone (`%eth0`) is dropped first.
  const bare = address.split('%', 1)[0]!;
  if (!isIPv6(bare)) return address;
  const ip = ipaddr.IPv6.parse(bare);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address().toString();
  return `${ip.parts
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The rate-limit key of a request's client (`request.ip`, which believes X-Forwarded-For from trusted proxies only). */
export function clientKey(request: Pick<FastifyRequest, 'ip'>): string {
  return clientKeyOfAddress(request.ip);
}

export interface AttemptCount {
  /** Attempts in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  ttlMs: number;
}

/**
 * Counts one attempt against `key` in a fixed window, atomically in PostgreSQL, so every instance sees the same count
 * (docs/decisions/0017). Also for counting outside a route, e.g. failed attempts per location.
 */
export async function countAttempt(db: DbExecutor, key: string, windowMs: number): Promise<AttemptCount> {
  const [row] = rowsOf<{ count: number; ttl_ms: number }>(
    await db.execute(sql`
      insert into rate_limits (key, count, expires_at) values (${key}, 1, now() + ${windowMs} * interval '1 millisecond')
      on conflict (key) do update set
        count = case when rate_limits.expires_at <= now() then 1 else rate_limits.count + 1 end,
        expires_at = case when rate_limits.expires_at <= now() then excluded.expires_at else rate_limits.expires_at end
      returning count, ceil(extract(epoch from (expires_at - now())) * 1000)::int as ttl_ms`),
  );
  return { count: Number(row!.count), ttlMs: Math.max(0, Number(row!.ttl_ms)) };
}

/** The `Retry-After` header of a 429 for a window that ends in `ttlMs`: whole seconds, at least 1. */
export function retryAfterHeader(ttlMs: number): Record<string, string> {
  return { 'retry-after': String(Math.max(1, Math.ceil(ttlMs / 1000))) };
}

/** The current count without adding one (0 when the window has ended). */
export async function peekAttempts(db: DbExecutor, key: string): Promise<AttemptCount> {
  const [row] = rowsOf<{ count: number; ttl_ms: number }>(
    await db.execute(sql`
      select count, ceil(extract(epoch from (expires_at - now())) * 1000)::int as ttl_ms
      from rate_limits where key = ${key} and expires_at > now()`),
  );
  return row ? { count: Number(row.count), ttlMs: Number(row.ttl_ms) } : { count: 0, ttlMs: 0 };
}

/** Forgets a key (e.g. a location's failed attempts after a success). */
export async function resetAttempts(db: DbExecutor, key: string): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}

type IncrCallback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/** An @fastify/rate-limit store over `countAttempt`; each route's counters are prefixed by its method and URL. */
function postgresStore(db: Db) {
  return class PostgresRateLimitStore {
    constructor(private readonly prefix = 'route') {}

    incr(key: string, callback: IncrCallback, timeWindow: number) {
      countAttempt(db, `${this.prefix}|${key}`, timeWindow).then(
        (r) => callback(null, { current: r.count, ttl: r.ttlMs }),
        (err: Error) => callback(err),
      );
    }

    read(key: string, callback: IncrCallback) {
      peekAttempts(db, `${this.prefix}|${key}`).then(
        (r) => callback(null, { current: r.count, ttl: r.ttlMs }),
        (err: Error) => callback(err),
      );
    }

    child(routeOptions: { routeInfo?: { method?: string | string[]; url?: string } }) {
      const info = routeOptions.routeInfo;
      return new PostgresRateLimitStore(`${[info?.method ?? ''].flat().join(',')} ${info?.url ?? ''}`);
    }
  };
}

/**
 * Registers @fastify/rate-limit with the shared PostgreSQL store in the caller's scope (a feature's route plugin).
 * Routes then declare `config: { rateLimit: routeRateLimit({ max, timeWindow, key }) }`. Over the limit: 429
 * `Too_Many_Requests` with `Retry-After` (the error handler's envelope).
 */
export async function registerSharedRateLimit(scope: FastifyInstance): Promise<void> {
  await scope.register(rateLimit, { global: false, store: postgresStore(scope.database.db) as never });
}

export interface RouteRateLimit {
  max: number;
  timeWindow: number;
  /** `ip`: per client (`clientKey`: an IPv4 address or an IPv6 /64; trusted proxies only); or a function, e.g. per account. */
  key: 'ip' | ((request: FastifyRequest) => string);
}

export function routeRateLimit({ max, timeWindow, key }: RouteRateLimit): RateLimitOptions {
  return { max, timeWindow, keyGenerator: key === 'ip' ? clientKey : key };
}

/** Deletes counters whose window has ended (run by the job runner). */
export function rateLimitCleanupJob(intervalMs = 10 * 60_000): Job {
  return {
    name: 'rate-limit-cleanup',
    intervalMs,
    async run(tx) {
      await tx.delete(rateLimits).where(lt(rateLimits.expiresAt, sql`now()`));
    },
  };
}
