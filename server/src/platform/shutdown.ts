import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * The shutdown drain (docs/decisions/0032, amended by 0061). While closing, a request that arrives on an open
 * connection is served, not refused: Fastify answers it with `Connection: close` (`return503OnClosing: false` in
 * buildApp), so the load balancer stops reusing that connection. Idle connections are closed, but one from a trusted
 * proxy only once it has been idle for `proxyIdleMs`, longer than the proxy keeps an idle upstream connection (nginx's
 * `keepalive_timeout` in deploy/nginx/portal.conf.template): closing it sooner races the proxy writing a request on
 * it at the same instant, and a POST lost that way is answered 502 (nginx never replays a POST it has sent). Other
 * clients' idle connections close at once (a browser sends again on a fresh connection when a reused one fails).
 */
export interface DrainOptions {
  /** Whether a peer is a trusted proxy (TRUST_PROXY): its idle connections are left to the proxy to close. */
  isTrustedProxy: (address: string) => boolean;
  /** SHUTDOWN_PROXY_IDLE_MS: how long a trusted proxy's connection must have been idle before the drain closes it. */
  proxyIdleMs: number;
}

interface Tracked {
  /** Requests received on the connection and not yet answered (more than one only when a client pipelines). */
  busy: number;
  /** When the last answer was sent (or the connection opened). */
  idleSince: number;
}

interface Drain {
  options: DrainOptions;
  sockets: Map<Socket, Tracked>;
}

const drains = new WeakMap<Server, Drain>();

/** Keeps track of every open connection and since when it has been idle; buildApp calls it once. */
export function trackConnectionsForDrain(server: Server, options: DrainOptions): void {
  const sockets = new Map<Socket, Tracked>();
  drains.set(server, { options, sockets });
  server.on('connection', (socket: Socket) => {
    sockets.set(socket, { busy: 0, idleSince: Date.now() });
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req, res) => {
    const tracked = sockets.get(req.socket);
    if (!tracked) return;
    tracked.busy += 1;
    res.once('close', () => {
      tracked.busy -= 1;
      tracked.idleSince = Date.now();
    });
  });
}

/**
 * Counts the route handlers running, whether or not their client is still connected: a client that goes away does
 * not stop its handler, which may still be hashing a password and then writing a session. The connection drain cannot
 * see those (their connection is closed), so without this count the database closed under them ("Cannot use a pool
 * after calling end on the pool", answered 500). Each handler is wrapped as its route is declared, so the count ends
 * when the handler does, answered or not (Fastify sends nothing for a client that is gone: counting up to `onSend`
 * would never end for it). `buildApp` calls it before any route; `waitForRequestsOnClose` is its other half.
 */
export function countRequestsForDrain(app: FastifyInstance): { settled(): Promise<void> } {
  let running = 0;
  let onSettled: (() => void) | undefined;
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = async function (this: FastifyInstance, request, reply) {
      running += 1;
      try {
        return await handler.call(this, request, reply);
      } finally {
        running -= 1;
        if (running === 0) onSettled?.();
      }
    };
  });
  return {
    settled: () =>
      running === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            onSettled = resolve;
          }),
  };
}

/**
 * The close waits for every counted request before the other onClose hooks (the password hasher, the jobs, the
 * content agents) and the database close in main.ts. Root onClose hooks run in the reverse order of registration, so
 * `buildApp` registers this one last.
 */
export function waitForRequestsOnClose(app: FastifyInstance, requests: { settled(): Promise<void> }): void {
  app.addHook('onClose', async () => requests.settled());
}

/**
 * SIGTERM/SIGINT: stop accepting connections, answer every request that was accepted or arrives on an open
 * connection (with `Connection: close`), close connections as they become idle (see DrainOptions), and only then run
 * the onClose hooks (the password hasher finishes its queue, the database closes).
 */
export async function closeGracefully(app: FastifyInstance, now: () => number = Date.now): Promise<void> {
  const drain = drains.get(app.server);
  if (!drain) return app.close();
  const { options, sockets } = drain;
  const closeIdle = () => {
    const at = now();
    for (const [socket, tracked] of sockets) {
      if (tracked.busy > 0) continue;
      const trusted = socket.remoteAddress !== undefined && options.isTrustedProxy(socket.remoteAddress);
      if (!trusted || at - tracked.idleSince >= options.proxyIdleMs) socket.destroy();
    }
  };
  // Node's server.close() closes every idle connection at once (closeIdleConnections); this one spares a proxy's
  // recently used connections. A connection idle only later (its answer sent) is closed by the interval.
  app.server.closeIdleConnections = closeIdle;
  const interval = setInterval(closeIdle, 50);
  try {
    await app.close();
  } finally {
    clearInterval(interval);
  }
}

/** What still holds a shutdown, for the log line at SHUTDOWN_TIMEOUT_MS: open connections, busy or idle, by peer. */
export function drainState(app: FastifyInstance, now: () => number = Date.now) {
  const drain = drains.get(app.server);
  if (!drain) return undefined;
  const at = now();
  return [...drain.sockets].map(([socket, tracked]) => ({
    peer: `${socket.remoteAddress}:${socket.remotePort}`,
    requestsInProgress: tracked.busy,
    idleMs: tracked.busy ? 0 : at - tracked.idleSince,
  }));
}
