import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testConfig } from './helpers';

// The test server's REQUEST_TIMEOUT_MS, and how late after it the server may cut a slow client: Node looks for late
// requests every quarter second (platform/connection-limits.ts), plus scheduling slack on a loaded machine.
const LIMIT_MS = 1_000;
const MARGIN_MS = 900;

interface Outcome {
  /** Whether the server closed the connection before the client had sent everything. */
  cutOffEarly: boolean;
  /** Milliseconds from the first byte to the close. */
  elapsedMs: number;
  answer: string;
}

/**
 * Opens a connection, sends `first`, then one of `pieces` every 100 ms (a "slowloris"). The whole request would take
 * `pieces.length / 10` seconds; the outcome says whether and when the server cut it off first, and what it answered.
 */
function trickle(port: number, first: string, pieces: string[]): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (cutOffEarly: boolean) => {
      clearInterval(timer);
      socket.destroy();
      resolve({ cutOffEarly, elapsedMs: Date.now() - started, answer });
    };
    socket.on('connect', () => {
      socket.write(first);
      timer = setInterval(() => {
        if (socket.destroyed) return;
        if (sent < pieces.length) socket.write(pieces[sent++]!);
        else {
          // The whole request went through: the server did not enforce its limit.
          clearInterval(timer);
          socket.once('data', () => finish(false));
        }
      }, 100);
    });
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => finish(sent < pieces.length));
    socket.on('error', (err) =>
      (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? finish(sent < pieces.length) : reject(err),
    );
  });
}

/** Request headers sent one line every 100 ms: 15 s in all. */
function trickleHeaders(port: number): Promise<Outcome> {
  const lines = Array.from({ length: 150 }, (_, i) => `X-Slow-${i}: 1\r\n`);
  return trickle(port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n', [...lines, '\r\n']);
}

/** Whole headers at once, then a JSON body one byte every 100 ms: 15 s in all. */
function trickleBody(port: number): Promise<Outcome> {
  const body = `{"username":"${'a'.repeat(130)}","password":"x"}`;
  const head =
    'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nX-Portal-Request: 1\r\nOrigin: http://localhost:3000\r\n' +
    `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  return trickle(port, head, [...body]);
}

/** An open connection that has sent nothing yet, and what the server sends on it before closing (if it does). */
function openConnection(port: number, from = '127.0.0.1'): Promise<{ socket: Socket; received: Promise<string> }> {
  return new Promise((resolve, reject) => {
    // Every 127.x.y.z address is this machine's loopback: `from` plays another client.
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    let text = '';
    const received = new Promise<string>((done) => {
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('close', () => done(text));
    });
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, received }));
    socket.once('error', reject);
  });
}

describe('slow clients', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let port: number;

  beforeAll(async () => {
    // A 1 s request limit (REQUEST_TIMEOUT_MS): the clients below take 15 s to send their requests.
    ctx = await buildTestApp({
      config: testConfig({ REQUEST_TIMEOUT_MS: String(LIMIT_MS), MAX_CONNECTIONS_PER_ADDRESS: '3' }),
    });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => ctx.app.close());

  it('a client that sends its headers slowly is cut off with 408 at the limit', async () => {
    const { cutOffEarly, elapsedMs, answer } = await trickleHeaders(port);
    expect(cutOffEarly).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(elapsedMs).toBeGreaterThanOrEqual(LIMIT_MS - 50);
    expect(elapsedMs).toBeLessThan(LIMIT_MS + MARGIN_MS);
  }, 30_000);

  it('a client that sends its body slowly is cut off with 408 at the limit, not when the body ends', async () => {
    const { cutOffEarly, elapsedMs, answer } = await trickleBody(port);
    expect(cutOffEarly).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(elapsedMs).toBeGreaterThanOrEqual(LIMIT_MS - 50);
    expect(elapsedMs).toBeLessThan(LIMIT_MS + MARGIN_MS);
    // Cutting a client off is not a server failure.
    expect(ctx.logLines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  }, 30_000);

  it('refuses the N+1th open connection from one address with 429, and still serves other clients', async () => {
    // MAX_CONNECTIONS_PER_ADDRESS=3.
    const held = await Promise.all([openConnection(port), openConnection(port), openConnection(port)]);
    try {
      const refused = await openConnection(port);
      refused.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(await refused.received).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n[\s\S]*"Too_Many_Requests"/);
      // The held connections still work.
      held[0]!.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(await held[0]!.received).toMatch(/^HTTP\/1\.1 200/);
      // Another address is served while this one is at its cap.
      const other = await openConnection(port, '127.0.0.2');
      other.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(await other.received).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const { socket } of held) socket.destroy();
    }
    // Once its connections close, the address is served again.
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  }, 30_000);

  it('a kept-alive connection answers many requests with a body, without collecting listeners', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      // Sequential requests from fetch reuse one kept-alive connection.
      for (let i = 0; i < 15; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-portal-request': '1' },
          body: JSON.stringify({ username: '' }),
        });
        expect(res.status).toBe(400);
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('an ordinary request on the same server is answered', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });
});

describe('the connection cap behind a trusted proxy', () => {
  it('does not cap the proxy itself: all its connections carry different clients', async () => {
    const ctx = await buildTestApp({
      config: testConfig({ TRUST_PROXY: '127.0.0.1', MAX_CONNECTIONS_PER_ADDRESS: '1' }),
    });
    try {
      await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (ctx.app.server.address() as AddressInfo).port;
      const held = await Promise.all([openConnection(port), openConnection(port), openConnection(port)]);
      for (const { socket } of held)
        socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      for (const { received } of held) expect(await received).toMatch(/^HTTP\/1\.1 200/);
      // Another peer, not a proxy, is capped at one connection.
      const [first, second] = [await openConnection(port, '127.0.0.3'), await openConnection(port, '127.0.0.3')];
      expect(await second.received).toMatch(/^HTTP\/1\.1 429/);
      first.socket.destroy();
    } finally {
      await ctx.app.close();
    }
  }, 30_000);
});
