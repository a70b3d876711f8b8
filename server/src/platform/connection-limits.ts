import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { clientKeyOfAddress } from './rate-limit';

export interface ConnectionLimits {
  /** REQUEST_TIMEOUT_MS: the longest a client may take to send one whole request, headers and body. */
  requestTimeoutMs: number;
  /** MAX_CONNECTIONS_PER_ADDRESS: open connections one client (rate-limit key) may hold at once; 0 = no cap. */
  maxPerAddress: number;
  /** Whether a peer is a trusted proxy: its connections carry many clients and are not capped (docs/decisions/0032). */
  isTrustedProxy: (address: string) => boolean;
  log: FastifyBaseLogger;
}

/** How often Node looks for requests past their deadline: the limit is kept to within this much. */
export function connectionsCheckingInterval(requestTimeoutMs: number): number {
  return Math.min(250, requestTimeoutMs);
}

const REQUEST_STARTED = Symbol('requestStarted');
type TrackedSocket = Socket & { [REQUEST_STARTED]?: number };

const REFUSED_BODY = '{"errorMessage":"Too_Many_Requests"}';
const REFUSED =
  'HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\nRetry-After: 1\r\n' +
  `Connection: close\r\nContent-Length: ${REFUSED_BODY.length}\r\n\r\n${REFUSED_BODY}`;

/** The error Node raises for a request past `requestTimeout`: Fastify's client error handler answers it 408. */
function requestTimeoutError(): Error {
  return Object.assign(new Error('request timeout: the body was not received in time'), {
    code: 'ERR_HTTP_REQUEST_TIMEOUT',
  });
}

/**
 * Slow and greedy clients (docs/decisions/0032, issue 19 finding 8):
 * - Node cuts a request whose headers are late (`headersTimeout`, set by buildApp), but not one whose body trickles
 *   in after the headers: each request here gets a deadline of `requestTimeoutMs` from its first byte, and a body
 *   still incomplete then is answered 408 (Fastify's client error answer, as for late headers) and the connection
 *   closed.
 * - Each client address (IPv6 by /64, as for rate limits) holds at most `maxPerAddress` connections; one more is
 *   answered 429 and closed before anything is read from it. Trusted proxies are exempt.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  const open = new Map<string, number>();
  // Refusals are logged at most every 10 s, with how many there were: a flood must not flood the log too.
  let refusedSinceLog = 0;
  let lastLogAt = 0;

  server.on('connection', (socket: TrackedSocket) => {
    // A request starts with its first byte (before Node's parser sees it); `finish` below clears the mark, so the
    // next request on a kept-alive connection starts with its own first byte.
    socket.prependListener('data', () => (socket[REQUEST_STARTED] ??= Date.now()));

    const address = socket.remoteAddress;
    if (!limits.maxPerAddress || !address || limits.isTrustedProxy(address)) return;
    const key = clientKeyOfAddress(address);
    const count = open.get(key) ?? 0;
    if (count >= limits.maxPerAddress) {
      refusedSinceLog++;
      if (Date.now() - lastLogAt >= 10_000) {
        limits.log.warn(
          { client: key, open: count, refused: refusedSinceLog },
          'connections refused: too many open connections from one client (MAX_CONNECTIONS_PER_ADDRESS)',
        );
        refusedSinceLog = 0;
        lastLogAt = Date.now();
      }
      // Nothing of this connection is read: a request it already sent is never handled.
      socket.pause();
      socket.end(REFUSED);
      setTimeout(() => socket.destroy(), 1_000).unref();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket as TrackedSocket;
    const started = socket[REQUEST_STARTED] ?? Date.now();
    response.once('finish', () => (socket[REQUEST_STARTED] = undefined));
    // No body (no Content-Length nor Transfer-Encoding, RFC 9112 §6.3): the headers were the whole request, and
    // the hot path of cached reads pays for no timer.
    const hasBody =
      request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
    if (!hasBody || request.complete) return;
    const timer = setTimeout(
      () => {
        if (request.complete || socket.destroyed) return;
        if (response.headersSent) socket.destroy();
        else server.emit('clientError', requestTimeoutError(), socket);
      },
      Math.max(0, started + limits.requestTimeoutMs - Date.now()),
    );
    timer.unref();
    // Removed again, so a long-lived connection does not collect one listener per request.
    const clear = () => {
      clearTimeout(timer);
      socket.removeListener('close', clear);
    };
    request.once('end', clear);
    socket.once('close', clear);
  });
}
