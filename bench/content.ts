// Requests per second of a cached content answer through the portal (`GET /api/content/topics?populate=*`
// through the whole app: helmet headers, request ids, CSRF hook, request logging, the proxy's cache and ETag)
// against a bare Fastify route on another port returning the same bytes with the same headers. Both sides answer
// `Accept-Encoding: br, gzip` as browsers send it: the portal with the brotli form stored with the cache entry, the
// bare route with those same compressed bytes.
// Target: ≥ 0.8 of bare. Second figure, the same for a cached server-rendered topic page (with region cookies)
// against a bare route sending that page's bytes and headers (needs `npm run build -w web` first).
// A third server, the content plugin alone in a bare Fastify, separates the proxy's
// own cost from the platform plugins' cost.
// The content comes from the real Strapi (cms/scripts/start-headless.mjs) on a throw-away SQLite file.
// autocannon runs as a child process so the load generator does not share the servers' event loop.
// Run: npm run bench:content   (or: npx tsx bench/content.ts)
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliDecompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { build } from 'esbuild';
import { freePort, startStrapi } from '../server/test/support/strapi';

// The servers under test run the code as `npm start` ships it: bundled by esbuild like server/build.mjs (tsx's
// on-the-fly transpilation adds wrappers to every function and would understate the portal).
const serverRoot = fileURLToPath(new URL('../server/', import.meta.url));
// Inside the repository so that the bundle's npm imports resolve from its node_modules.
const bundleDir = join(serverRoot, '..', 'node_modules', '.cache', 'portal-bench');
await build({
  stdin: {
    contents: [
      "export { buildApp } from './src/app';",
      "export { loadConfig } from './src/config';",
      "export { contentPlugin } from './src/content/plugin';",
      "export { openPglite } from './src/db/client';",
      "export { errorHandlerPlugin } from './src/platform/error-handler';",
    ].join('\n'),
    resolveDir: serverRoot,
    loader: 'ts',
  },
  outfile: join(bundleDir, 'server.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  alias: { '@portal/contracts': join(serverRoot, '../packages/contracts/src') },
  logLevel: 'warning',
});
// As in server/build.mjs, the committed migrations sit beside the bundle.
cpSync(join(serverRoot, 'src/db/migrations'), join(bundleDir, 'migrations'), { recursive: true });
const { buildApp, loadConfig, contentPlugin, openPglite, errorHandlerPlugin } = (await import(
  join(bundleDir, 'server.mjs')
)) as typeof import('./bench-server-exports');

const CONNECTIONS = 10;
const DURATION_S = 5;
const ROUNDS = 5;
const WARMUP_S = 2;
const PATH = '/api/content/topics?populate=*';
// What a browser sends; the answer's bytes are taken as they come (fetch would decompress them).
const ACCEPT_ENCODING = 'br, gzip';

function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': ACCEPT_ENCODING, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}
const PAGE_PATH = '/topics/rendering-examples';
const PAGE_COOKIE = 'region=J5A; amaApproved=true';
const autocannonCli = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-content-'));
const cmsPort = await freePort();
const config = loadConfig({
  NODE_ENV: 'production',
  // Production requires these from the environment; throw-away values for the benchmark.
  SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
  ENCRYPTION_KEY: '0'.repeat(64),
  LOG_LEVEL: 'info',
  DATA_DIR: dataDir,
  // The built web app and its server entry (web/dist-ssr), for the server-rendered page figure.
  WEB_DIST_DIR: fileURLToPath(new URL('../web/dist', import.meta.url)),
  SEED_DEMO_DATA: 'false',
  CMS_URL: `http://127.0.0.1:${cmsPort}`,
  CONTENT_CACHE_TTL_MS: '600000',
});

console.log('starting PGlite and the real Strapi…');
const database = await openPglite(join(dataDir, 'pgdata'));
await database.migrate();
const cms = await startStrapi({ portalDataDir: dataDir, port: cmsPort });
console.log(`Strapi ready in ${cms.startupMs} ms`);

const servers: FastifyInstance[] = [];
async function listen(app: FastifyInstance): Promise<string> {
  servers.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

// The portal as deployed. Log lines are produced and serialised as in production, then dropped (no terminal I/O).
const sink = new Writable({ write: (_chunk, _enc, done) => done() });
const portalUrl = await listen(await buildApp({ config, database, logStream: sink }));

// The content plugin alone (no helmet, logging, request ids or CSRF hook).
const pluginOnly = Fastify({ logger: false });
await pluginOnly.register(errorHandlerPlugin);
await pluginOnly.register(contentPlugin, { config });
const pluginUrl = await listen(pluginOnly);

const warm = await rawGet(`${portalUrl}${PATH}`);
if (warm.status !== 200) throw new Error(`warming the cache failed: ${warm.status} ${warm.body.toString()}`);
await rawGet(`${pluginUrl}${PATH}`);
const again = await rawGet(`${portalUrl}${PATH}`);
if (again.headers['x-content-stale']) throw new Error('the answer is not fresh from the cache');
const body = again.body;
const encoding = again.headers['content-encoding'] ?? 'identity';

// The bare route sends the same bytes and the same headers (the request id is the only per-request value).
const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const headers: Record<string, string> = {};
for (const [name, value] of Object.entries(again.headers)) {
  if (!skip.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
}
const bare = Fastify({ logger: false });
bare.get('/api/content/topics', (_request, reply) => {
  reply.headers(headers).send(body);
});
const bareUrl = await listen(bare);

// The page figure: a cached server-rendered topic page, and a bare route sending its bytes and headers.
const pageWarm = await rawGet(`${portalUrl}${PAGE_PATH}`, { cookie: PAGE_COOKIE });
const pageBody = pageWarm.body;
const pageText = pageWarm.headers['content-encoding'] === 'br' ? brotliDecompressSync(pageBody) : pageBody;
if (pageWarm.status !== 200 || !pageText.includes('portal-server-state'))
  throw new Error('the topic page was not server-rendered: run `npm run build -w web` first');
const pageHeaders: Record<string, string> = {};
for (const [name, value] of Object.entries(pageWarm.headers)) {
  if (!skip.has(name) && typeof value === 'string') pageHeaders[name] = value;
}
const barePage = Fastify({ logger: false });
barePage.get(PAGE_PATH, (_request, reply) => {
  reply.headers(pageHeaders).send(pageBody);
});
const barePageUrl = await listen(barePage);

// On a machine with two or more cores and taskset (util-linux), the servers run on core 0 and autocannon on core 1:
// the scheduler then never puts the load generator on the servers' core, which is most of the run-to-run noise.
const pinned =
  availableParallelism() >= 2 &&
  spawnSync('taskset', ['-a', '-pc', '0', String(process.pid)], { stdio: 'ignore' }).status === 0;
const loadGenerator = pinned
  ? { command: 'taskset', prefix: ['-c', '1', process.execPath] }
  : { command: process.execPath, prefix: [] };

interface Measurement {
  rate: number;
  /** CPU time (user + system) of this process — the servers — per answered request, in µs. */
  cpuPerRequestUs: number;
}

async function measure(url: string, seconds = DURATION_S, path = PATH, cookie?: string): Promise<Measurement> {
  const cookieArgs = cookie ? ['-H', `cookie=${cookie}`] : [];
  const args = [
    ...loadGenerator.prefix,
    autocannonCli,
    '--json',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(seconds),
    '-H',
    `accept-encoding=${ACCEPT_ENCODING}`,
    ...cookieArgs,
    `${url}${path}`,
  ];
  const cpuBefore = process.cpuUsage();
  const { stdout } = await promisify(execFile)(loadGenerator.command, args, {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const cpu = process.cpuUsage(cpuBefore);
  const result = JSON.parse(stdout) as { requests: { average: number; total: number }; non2xx: number; errors: number };
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rate: result.requests.average, cpuPerRequestUs: (cpu.user + cpu.system) / result.requests.total };
}

type Target = 'portal' | 'bare' | 'plugin';
const urls: Record<Target, string> = { portal: portalUrl, bare: bareUrl, plugin: pluginUrl };
const rates: Record<Target, number[]> = { portal: [], plugin: [], bare: [] };
const cpuCosts: Record<Target, number[]> = { portal: [], plugin: [], bare: [] };
const pageRates = { portal: [] as number[], bare: [] as number[] };
const pageCpuCosts = { portal: [] as number[], bare: [] as number[] };
const orders: Target[][] = [
  ['portal', 'bare', 'plugin'],
  ['bare', 'plugin', 'portal'],
  ['plugin', 'portal', 'bare'],
];
try {
  // Warm every server up first so that no target is measured while V8 is still compiling its hot path.
  for (const target of Object.keys(urls) as Target[]) await measure(urls[target], WARMUP_S);
  for (let round = 1; round <= ROUNDS; round++) {
    // The order rotates each round: no target always runs first or last on a shared, noisy machine.
    for (const target of orders[(round - 1) % orders.length]!) {
      const { rate, cpuPerRequestUs } = await measure(urls[target]);
      rates[target].push(rate);
      cpuCosts[target].push(cpuPerRequestUs);
    }
    console.log(
      `round ${round}: portal ${rates.portal.at(-1)!.toFixed(0)}, bare ${rates.bare.at(-1)!.toFixed(0)}, plugin alone ${rates.plugin.at(-1)!.toFixed(0)} req/s`,
    );
  }
  await measure(portalUrl, WARMUP_S, PAGE_PATH, PAGE_COOKIE);
  await measure(barePageUrl, WARMUP_S, PAGE_PATH, PAGE_COOKIE);
  for (let round = 1; round <= ROUNDS; round++) {
    const pair = round % 2 ? (['portal', 'bare'] as const) : (['bare', 'portal'] as const);
    for (const target of pair) {
      const { rate, cpuPerRequestUs } = await measure(
        target === 'portal' ? portalUrl : barePageUrl,
        DURATION_S,
        PAGE_PATH,
        PAGE_COOKIE,
      );
      pageRates[target].push(rate);
      pageCpuCosts[target].push(cpuPerRequestUs);
    }
    console.log(
      `page round ${round}: portal ${pageRates.portal.at(-1)!.toFixed(0)}, bare ${pageRates.bare.at(-1)!.toFixed(0)} req/s`,
    );
  }
} finally {
  for (const server of servers) await server.close();
  await database.close();
  await cms.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

// Each round's ratio compares runs made seconds apart; the median of those ratios resists one noisy round.
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const [portal, bareRate, plugin] = [mean(rates.portal), mean(rates.bare), mean(rates.plugin)];
const portalRatio = median(rates.portal.map((r, i) => r / rates.bare[i]!));
const pluginRatio = median(rates.plugin.map((r, i) => r / rates.bare[i]!));
// CPU time per request depends far less than requests/s on what else the machine runs at the time: on a shared
// machine it is the steadier figure, and bare / portal estimates the ratio an otherwise idle core would give.
const [portalCpu, bareCpu, pluginCpu] = [median(cpuCosts.portal), median(cpuCosts.bare), median(cpuCosts.plugin)];
console.log(
  `\ncached GET ${PATH} (${body.length} bytes ${encoding}, ${Object.keys(headers).length} headers), ${CONNECTIONS} connections, ${DURATION_S} s × ${ROUNDS} rounds each, loopback, ${pinned ? 'servers on core 0 and autocannon on core 1' : 'not pinned to cores'}`,
);
console.log(`portal (whole app):          ${portal.toFixed(0)} req/s`);
console.log(`bare Fastify route:          ${bareRate.toFixed(0)} req/s`);
console.log(`content plugin alone:        ${plugin.toFixed(0)} req/s`);
console.log(
  `ratio portal / bare:         ${portalRatio.toFixed(2)} (median of the rounds; target ≥ 0.80) ${portalRatio >= 0.8 ? 'MET' : 'NOT MET'}`,
);
console.log(
  `ratio plugin alone / bare:   ${pluginRatio.toFixed(2)} (the proxy's own cost, without the platform plugins)`,
);
console.log(
  `server CPU per request:      portal ${portalCpu.toFixed(1)} µs, bare ${bareCpu.toFixed(1)} µs, plugin alone ${pluginCpu.toFixed(1)} µs (medians)`,
);
console.log(
  `ratio by CPU (bare / portal): ${(bareCpu / portalCpu).toFixed(2)} (what an idle core would give; less sensitive to other load)`,
);
const pageRatio = median(pageRates.portal.map((r, i) => r / pageRates.bare[i]!));
console.log(
  `\ncached server-rendered GET ${PAGE_PATH} (${pageBody.length} bytes, region cookies), ${DURATION_S} s × ${ROUNDS} rounds each`,
);
console.log(`portal (whole app):          ${mean(pageRates.portal).toFixed(0)} req/s`);
console.log(`bare Fastify route:          ${mean(pageRates.bare).toFixed(0)} req/s`);
console.log(
  `ratio page portal / bare:    ${pageRatio.toFixed(2)} (median of the rounds; target ≥ 0.80) ${pageRatio >= 0.8 ? 'MET' : 'NOT MET'}`,
);
const [pagePortalCpu, pageBareCpu] = [median(pageCpuCosts.portal), median(pageCpuCosts.bare)];
console.log(
  `server CPU per request:      portal ${pagePortalCpu.toFixed(1)} µs, bare ${pageBareCpu.toFixed(1)} µs (medians)`,
);
console.log(
  `ratio by CPU (bare / portal): ${(pageBareCpu / pagePortalCpu).toFixed(2)} (what an idle core would give; less sensitive to other load)`,
);
