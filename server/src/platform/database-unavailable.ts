/**
 * Whether `err` (or an error it wraps: Drizzle wraps the driver's error in `cause`) says the database cannot be
 * reached right now — refused or lost connection, server shutting down or starting, no connection within the pool's
 * timeout — as opposed to a fault in the query or the data. Such a request is answered 503 `Service_Unavailable`
 * (docs/requirements/platform.md#operations): the caller can try again, and the load balancer counts it as a
 * failure of the instance, not of the request.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as Error).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * Socket errors from connecting or talking to the server, and PostgreSQL's SQLSTATEs for a server going away or not
 * ready: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now; class 08 (connection exception) is
 * matched by prefix above.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
]);

/** node-postgres' own messages for a lost connection and for a pool that found none in connectionTimeoutMillis. */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated unexpectedly)/;

/**
 * PostgreSQL's SQLSTATEs for a transaction the server aborted because it met another one: 40001
 * serialization_failure and 40P01 deadlock_detected (the victim of a lock cycle). Nothing is wrong with the request:
 * run again, the transaction succeeds (or meets the rule it then sees).
 */
const CONFLICT_CODES = new Set(['40001', '40P01']);

/** Whether `err` (or an error it wraps) is a transaction aborted by a conflict with another (`CONFLICT_CODES`). */
export function isTransactionConflict(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as Error).cause, depth++) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && CONFLICT_CODES.has(code)) return true;
  }
  return false;
}

/**
 * Runs `transaction` again when the database aborted it for a conflict with another transaction
 * (`isTransactionConflict`), up to `attempts` times in all; the last conflict is thrown (the error handler answers it
 * 503 `Service_Unavailable`, never 500). `transaction` must be a whole transaction: a rolled-back attempt leaves
 * nothing behind.
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      if (attempt >= attempts || !isTransactionConflict(err)) throw err;
    }
  }
}
