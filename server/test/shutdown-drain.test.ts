import { readFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeGracefully } from '../src/platform/shutdown';
import { buildTestApp, testConfig } from './helpers';

// The rolling restart of the bench gates (docs/decisions/0037-bench-gates.md): nginx keeps its upstream connections
// open and sends the next request on one of them while the instance is draining. That request must be served (and
// tell nginx to stop reusing the connection), not refused with 503 nor lost on a connection closed under it.

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A kept-alive HTTP/1.1 connection from 127.0.0.1, as nginx holds to an upstream. */
class Connection {
  private buffer = '';
  private waiting: (() => void) | undefined;
  closed = false;
  readonly socket: Socket;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setEncoding('latin1');
    this.socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.waiting?.();
    });
    this.socket.on('error', () => {});
    this.socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  async request(method: string, path: string, body?: object): Promise<Answer> {
    const payload = body ? JSON.stringify(body) : '';
    const head = [
      `${method} ${path} HTTP/1.1`,
      'Host: localhost:3000',
      'Connection: keep-alive',
      'X-Portal-Request: 1',
      'Origin: http://localhost:3000',
      ...(body ? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(payload)}`] : []),
    ];
    this.socket.write(`${head.join('\r\n')}\r\n\r\n${payload}`);
    for (;;) {
      const answer = this.parse();
      if (answer) return answer;
      if (this.closed) throw new Error(`the connection was closed without an answer (${this.buffer.length} bytes)`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  private parse(): Answer | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = this.buffer.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return undefined;
    const body = this.buffer.slice(end + 4, end + 4 + length);
    this.buffer = this.buffer.slice(end + 4 + length);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }

  async closedByServer(): Promise<void> {
    while (!this.closed) await new Promise<void>((resolve) => (this.waiting = resolve));
  }
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
});

async function listeningApp(env: Record<string, string>) {
  const { app } = await buildTestApp({ config: testConfig(env) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  closers.push(() => app.close());
  return { app, port: (app.server.address() as AddressInfo).port };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the shutdown drain behind a load balancer', () => {
  it('serves a POST that arrives on a kept-alive proxy connection while closing, with Connection: close', async () => {
    const { app, port } = await listeningApp({ TRUST_PROXY: 'loopback', SHUTDOWN_PROXY_IDLE_MS: '10000' });
    const proxy = new Connection(port);
    const first = await proxy.request('GET', '/healthz');
    expect(first.status).toBe(200);
    expect(first.headers.connection).toBe('keep-alive');

    const closing = closeGracefully(app);
    await sleep(200); // the listening socket is closed and the drain's idle sweep has run a few times
    // A login spends a password hash: it is accepted, hashed and answered before the process may go on closing.
    const during = await proxy.request('POST', '/api/auth/login', { username: 'nobody', password: 'not the password' });
    expect(during.status).toBe(401);
    expect(JSON.parse(during.body)).toEqual({ errorMessage: 'Login_Failed' });
    expect(during.headers.connection).toBe('close');
    await proxy.closedByServer();
    await closing;
    await expect(new Connection(port).request('GET', '/healthz')).rejects.toThrow(/closed without an answer/);
  });

  it("closes a proxy's connection once it has been idle longer than SHUTDOWN_PROXY_IDLE_MS", async () => {
    const { app, port } = await listeningApp({ TRUST_PROXY: 'loopback', SHUTDOWN_PROXY_IDLE_MS: '600' });
    const proxy = new Connection(port);
    expect((await proxy.request('GET', '/healthz')).status).toBe(200);
    const started = Date.now();
    const closing = closeGracefully(app);
    await proxy.closedByServer();
    // Not before the limit (the proxy may still send on it); the drain then ends by itself.
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    await closing;
  });

  it("closes another client's idle connection at once", async () => {
    const { app, port } = await listeningApp({ TRUST_PROXY: 'false', SHUTDOWN_PROXY_IDLE_MS: '60000' });
    const browser = new Connection(port);
    expect((await browser.request('GET', '/healthz')).status).toBe(200);
    const started = Date.now();
    await closeGracefully(app);
    await browser.closedByServer();
    // Far below the 60 s a proxy's connection would be left open: it was not waited for.
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe('the shutdown drain and requests whose client went away', () => {
  it('does not finish closing (the database closes next) while their handler still runs', async () => {
    let started = false;
    let finished = false;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { app } = await buildTestApp({
      extraRoutes: (a) =>
        a.get('/test/slow', async () => {
          started = true;
          await gate;
          finished = true;
          return { ok: true };
        }),
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    closers.push(() => app.close());
    const client = new Connection((app.server.address() as AddressInfo).port);
    void client.request('GET', '/test/slow').catch(() => {});
    await expect.poll(() => started).toBe(true);
    client.socket.destroy(); // the client gives up; the handler goes on
    let closed = false;
    const closing = closeGracefully(app).then(() => (closed = true));
    await sleep(300);
    expect(closed).toBe(false);
    release();
    await closing;
    expect(finished).toBe(true);
  });
});

describe("the drain's idle limit and nginx's", () => {
  it('nginx lets an idle upstream connection go before a draining portal would close it', () => {
    const template = readFileSync(new URL('../../deploy/nginx/portal.conf.template', import.meta.url), 'utf8');
    const upstream = /upstream portal_instances \{([\s\S]*?)\n\}/.exec(template)?.[1] ?? '';
    const nginxSeconds = Number(/^\s*keepalive_timeout (\d+)s;/m.exec(upstream)?.[1]);
    expect(nginxSeconds).toBeGreaterThan(0);
    // At least a second of margin: nginx's timer and the portal's sweep both run late on a loaded machine.
    expect(testConfig().shutdownProxyIdleMs).toBeGreaterThanOrEqual(nginxSeconds * 1000 + 1000);
  });
});
