import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testConfig } from './helpers';

/**
 * A client that sends its request headers one line at a time (a "slowloris"). It would finish after 15 s; the
 * result says whether the server cut it off first, and what it answered.
 */
function trickleHeaders(port: number): Promise<{ cutOffEarly: boolean; answer: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (cutOffEarly: boolean) => {
      clearInterval(timer);
      socket.destroy();
      resolve({ cutOffEarly, answer });
    };
    socket.on('connect', () => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
      timer = setInterval(() => {
        if (socket.destroyed) return;
        if (++sent < 150) socket.write(`X-Slow-${sent}: 1\r\n`);
        else {
          // The whole request went through: the server did not enforce its limit.
          socket.write('\r\n');
          socket.once('data', () => finish(false));
        }
      }, 100);
    });
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => finish(sent < 150));
    socket.on('error', (err) =>
      (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? finish(sent < 150) : reject(err),
    );
  });
}

describe('slow clients', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let port: number;

  beforeAll(async () => {
    // A 1 s request limit (REQUEST_TIMEOUT_MS): the client below takes 15 s to send its headers.
    ctx = await buildTestApp({ config: testConfig({ REQUEST_TIMEOUT_MS: '1000' }) });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => ctx.app.close());

  it('a client that sends its headers slowly is cut off with 408 instead of holding the connection', async () => {
    const { cutOffEarly, answer } = await trickleHeaders(port);
    expect(cutOffEarly).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);

  it('an ordinary request on the same server is answered', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });
});
