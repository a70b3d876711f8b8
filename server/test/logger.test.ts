import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { isQuietRequest, lazyChildLogger, logDestination, loggerOptions } from '../src/platform/logger';

function capturedLogger(level = 'trace') {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    ),
  );
  const parent = pino({ ...loggerOptions('info'), level }, stream) as FastifyBaseLogger;
  return { parent, lines };
}

describe('the per-request logger (lazyChildLogger)', () => {
  // One entry per member of FastifyBaseLogger: a member added to the interface is a type error here until tested.
  const members: Record<keyof FastifyBaseLogger, (log: FastifyBaseLogger) => unknown> = {
    level: (log) => log.level,
    fatal: (log) => log.fatal({ n: 1 }, 'fatal line'),
    error: (log) => log.error('error line'),
    warn: (log) => log.warn({ n: 2 }, 'warn line %s', 'formatted'),
    info: (log) => log.info('info line'),
    debug: (log) => log.debug({ n: 3 }, 'debug line'),
    trace: (log) => log.trace('trace line'),
    silent: (log) => log.silent('silent line'),
    child: (log) => log.child({ step: 'inner' }).info('child line'),
  };

  it.each(Object.entries(members))('%s behaves as on a pino child bound to the request id', async (member, use) => {
    const lazy = capturedLogger();
    const real = capturedLogger();
    const lazyResult = use(lazyChildLogger(lazy.parent, { requestId: 'req-1' }, {}));
    const realResult = use(real.parent.child({ requestId: 'req-1' }, {}));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lazyResult).toEqual(realResult);
    const withoutTime = (lines: Record<string, unknown>[]) => lines.map(({ time: _time, ...rest }) => rest);
    expect(withoutTime(lazy.lines), member).toEqual(withoutTime(real.lines));
    if (['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'child'].includes(member)) {
      expect(lazy.lines).toHaveLength(1);
      expect(lazy.lines[0]).toMatchObject({ requestId: 'req-1' });
    }
  });

  it('a level set on it applies to that request only', async () => {
    const { parent, lines } = capturedLogger('info');
    const quiet = lazyChildLogger(parent, { requestId: 'req-2' }, {});
    quiet.level = 'error';
    expect(quiet.level).toBe('error');
    quiet.info('dropped');
    lazyChildLogger(parent, { requestId: 'req-3' }, {}).info('kept');
    expect(parent.level).toBe('info');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => l.msg)).toEqual(['kept']);
  });

  it('honours a level passed in the child options (a route logLevel)', async () => {
    const { parent, lines } = capturedLogger('info');
    const log = lazyChildLogger(parent, { requestId: 'req-4' }, { level: 'debug' });
    expect(log.level).toBe('info'); // the parent's until the child exists
    log.debug('route debug line');
    expect(log.level).toBe('debug');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([expect.objectContaining({ msg: 'route debug line', requestId: 'req-4' })]);
  });
});

describe('log format', () => {
  it('json writes to pino’s own stdout destination', () => {
    expect(logDestination('json')).toBeUndefined();
  });

  it('pretty writes one readable line per event, with its fields and without secrets', async () => {
    const written: string[] = [];
    const out = new PassThrough();
    out.on('data', (chunk: Buffer) => written.push(chunk.toString('utf8')));
    const log = pino(loggerOptions('info'), logDestination('pretty', out)!);
    log.info({ database: 'pglite', config: { sessionSecret: 'super-secret-value' } }, 'database schema is up to date');
    await new Promise((resolve) => setImmediate(resolve));
    // Colours (on when the terminal or CI supports them) are not part of what is checked.
    const output = stripVTControlCharacters(written.join(''));
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d(\.\d+)?\] INFO: database schema is up to date/);
    expect(output).toContain('"database":"pglite"');
    expect(output).not.toContain('super-secret-value');
    expect(output).not.toMatch(/^\{/);
  });
});

describe('requests without access lines (isQuietRequest)', () => {
  it('are page views, cached content and probes; API calls, files and other methods are logged', () => {
    for (const url of ['/', '/topics/appeals', '/no/such/page?x=1', '/api/content/topics', '/assets/index-1.js'])
      expect(isQuietRequest(url, 'GET'), url).toBe(true);
    expect(isQuietRequest('/topics/appeals', 'HEAD')).toBe(true);
    for (const url of ['/api/session', '/api', '/favicon.svg', '/robots.txt'])
      expect(isQuietRequest(url, 'GET'), url).toBe(false);
    expect(isQuietRequest('/topics/appeals', 'POST')).toBe(false);
  });
});
