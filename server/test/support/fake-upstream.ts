import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export type FakeHandler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/**
 * A tiny HTTP server on 127.0.0.1 playing the CMS, for the proxy's unit-level tests only (cache, single-flight,
 * ETag, failure handling). The integration tests use the real Strapi (test/support/strapi.ts).
 */
export async function startFakeUpstream(handler: FakeHandler, port = 0) {
  const requests: RecordedRequest[] = [];
  let current = handler;
  const server = createServer((req, res) => {
    const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
    requests.push(recorded);
    Promise.resolve(current(recorded, res)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    setHandler(next: FakeHandler) {
      current = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
