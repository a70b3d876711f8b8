// How long a content request waits when the CMS accepts the connection but never answers: the server's own
// upstream deadline (CMS_TIMEOUT_MS) should bound it, far below the browser's 180 s content time-out.
// Run: npx tsx bench/content-timeout.ts
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { loadConfig } from '../server/src/config';
import { contentPlugin } from '../server/src/content/plugin';
import { errorHandlerPlugin } from '../server/src/platform/error-handler';

const hanging: Server = createServer(() => undefined);
await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
const port = (hanging.address() as { port: number }).port;
const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-timeout-'));
for (const timeoutMs of [300, 1000, 5000]) {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    CMS_URL: `http://127.0.0.1:${port}`,
    CMS_TOKEN: 'bench-token',
    CMS_TIMEOUT_MS: String(timeoutMs),
  });
  const app = Fastify();
  await app.register(errorHandlerPlugin);
  await app.register(contentPlugin, { config });
  const started = performance.now();
  const res = await app.inject('/api/content/topics');
  const waited = performance.now() - started;
  console.log(
    `CMS_TIMEOUT_MS=${timeoutMs}: ${res.statusCode} ${res.json<{ errorMessage: string }>().errorMessage} after ${Math.round(waited)} ms`,
  );
  await app.close();
}
hanging.closeAllConnections();
hanging.close();
rmSync(dataDir, { recursive: true, force: true });
