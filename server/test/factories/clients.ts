import type { FastifyInstance } from 'fastify';
import { otherSession, type TestClient, type TestClock } from '../helpers';

/** Callers of a test app: client addresses of their own, and logged-in sessions made in the table. */

let addressSerial = 0;

/**
 * A client address no other call in this test file gets (`10.200.x.y`): one test's per-client limits never touch
 * another's. Each test file has its own database, so the rate-limit counters of two files never meet.
 */
export function newIp(): string {
  const n = ++addressSerial;
  return `10.200.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}

/** A caller from an address of its own, with no session yet. */
export function newClient(): TestClient {
  return { ip: newIp() };
}

/** A logged-in, freshly authenticated client of the person (the session made in the table, as `otherSession` does). */
export function sessionOf(app: FastifyInstance, clock: TestClock, userId: string): Promise<TestClient> {
  return otherSession(app, clock, userId, { ip: newIp() });
}

/** A logged-in client whose login is `minutesAgo` old (active just now): past 20 minutes it must re-authenticate. */
export function staleSessionOf(
  app: FastifyInstance,
  clock: TestClock,
  userId: string,
  minutesAgo: number,
): Promise<TestClient> {
  const authenticatedAt = new Date(clock.now().getTime() - minutesAgo * 60_000);
  return otherSession(app, clock, userId, { ip: newIp(), authenticatedAt });
}
