import http from 'node:http';
import https from 'node:https';

export interface UpstreamResponse {
  status: number;
  contentType: string;
  /** Read only for 200 answers; empty otherwise. */
  body: Buffer;
}

export class UpstreamError extends Error {
  constructor(
    readonly reason: 'timeout' | 'too-large' | 'network',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UpstreamError';
  }
}

/** Keep-alive agents: a miss costs one request on an open connection, not a new TCP handshake. */
export function createAgents() {
  const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}
export type Agents = ReturnType<typeof createAgents>;

/**
 * GET `url` with exactly the given headers (nothing from the browser's request is ever passed on), a deadline
 * for the whole exchange and a cap on the body size. Bodies of non-200 answers are discarded unread.
 */
export function upstreamGet(
  url: URL,
  headers: Record<string, string>,
  options: { timeoutMs: number; maxBytes: number; agents: Agents },
): Promise<UpstreamResponse> {
  const isHttps = url.protocol === 'https:';
  const request = isHttps ? https.request : http.request;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | undefined, value?: UpstreamResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(value!);
    };
    const req = request(
      url,
      { method: 'GET', headers, agent: isHttps ? options.agents.https : options.agents.http },
      (res) => {
        const status = res.statusCode ?? 0;
        const contentType = String(res.headers['content-type'] ?? '');
        if (status !== 200) {
          res.resume();
          res.on('end', () => finish(undefined, { status, contentType, body: Buffer.alloc(0) }));
          res.on('error', (err) => finish(new UpstreamError('network', 'upstream answer broke off', { cause: err })));
          return;
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          req.destroy();
          finish(new UpstreamError('too-large', `upstream answer of ${declared} bytes exceeds ${options.maxBytes}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            req.destroy();
            finish(new UpstreamError('too-large', `upstream answer exceeds ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => finish(undefined, { status, contentType, body: Buffer.concat(chunks, size) }));
        res.on('error', (err) => finish(new UpstreamError('network', 'upstream answer broke off', { cause: err })));
        res.on('aborted', () => finish(new UpstreamError('network', 'upstream answer broke off')));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(new UpstreamError('timeout', `no complete upstream answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    req.on('error', (err) =>
      finish(
        new UpstreamError(
          'network',
          `upstream request failed (${(err as NodeJS.ErrnoException).code ?? err.message})`,
          { cause: err },
        ),
      ),
    );
    req.end();
  });
}
