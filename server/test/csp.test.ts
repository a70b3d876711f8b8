import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testConfig } from './helpers';

const cspOf = async (ctx: Awaited<ReturnType<typeof buildTestApp>>) =>
  (await ctx.app.inject('/healthz')).headers['content-security-policy'] as string;
const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `));

describe('CSP for configured third-party scripts', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  const integrity = 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC';
  beforeAll(async () => {
    ctx = await buildTestApp({
      config: testConfig({
        ANALYTICS_SCRIPT_URL: 'https://tags.vendor.example/gtag/js?id=G-123',
        CHAT_SCRIPT_URL: 'https://chat.vendor.example/widget/v2/loader.js',
        SURVEY_SCRIPT_URL: 'https://cdn.shared.example/survey;v=1.js',
        ANALYTICS_SCRIPT_INTEGRITY: integrity,
      }),
    });
  });
  afterAll(async () => ctx.app.close());

  it('admits each script by its full path in script-src, not its whole origin', async () => {
    expect(directive(await cspOf(ctx), 'script-src')).toBe(
      "script-src 'self' https://tags.vendor.example/gtag/js https://chat.vendor.example/widget/v2/loader.js https://cdn.shared.example/survey%3Bv=1.js",
    );
  });

  it('hands the integrity hash to the browser with the script address', async () => {
    const res = await ctx.app.inject('/api/site-config.js');
    expect(res.body).toContain(`"analyticsScriptIntegrity":"${integrity}"`);
    expect(res.body).not.toContain('chatScriptIntegrity');
  });
});

describe('CSP violation reports', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(async () => ctx.app.close());

  const report = (contentType: string, payload: unknown, remoteAddress = '127.0.0.1') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': contentType },
      remoteAddress,
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const warnings = () =>
    ctx.logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'content security policy violation');

  it('the CSP names the report endpoint (report-uri and report-to), and Reporting-Endpoints defines it', async () => {
    const res = await ctx.app.inject('/');
    const csp = res.headers['content-security-policy'] as string;
    expect(directive(csp, 'report-uri')).toBe('report-uri /api/csp-report');
    expect(directive(csp, 'report-to')).toBe('report-to csp-endpoint');
    expect(res.headers['reporting-endpoints']).toBe('csp-endpoint="http://localhost:3000/api/csp-report"');
  });

  it('logs a report-uri report (application/csp-report) at warn level, without query strings', async () => {
    const res = await report('application/csp-report', {
      'csp-report': {
        'document-uri': 'http://localhost:3000/topics/x?npi=1234567893',
        'violated-directive': 'script-src-elem',
        'effective-directive': 'script-src-elem',
        'blocked-uri': 'https://evil.example/x.js?token=abc',
        'line-number': 3,
      },
    });
    expect(res.statusCode).toBe(204);
    const logged = warnings().at(-1);
    expect(logged.level).toBe(40);
    expect(logged.cspViolation).toEqual({
      documentUrl: 'http://localhost:3000/topics/x',
      directive: 'script-src-elem',
      blockedUrl: 'https://evil.example/x.js',
      line: 3,
    });
  });

  it('logs the CSP reports of a Reporting API batch (application/reports+json) and skips other report types', async () => {
    const before = warnings().length;
    const res = await report('application/reports+json', [
      {
        type: 'csp-violation',
        age: 1,
        url: 'http://localhost:3000/',
        body: {
          documentURL: 'http://localhost:3000/',
          effectiveDirective: 'img-src',
          blockedURL: 'https://img.example/a.png',
          disposition: 'enforce',
        },
      },
      { type: 'deprecation', body: { id: 'x' } },
    ]);
    expect(res.statusCode).toBe(204);
    expect(
      warnings()
        .slice(before)
        .map((l) => l.cspViolation),
    ).toEqual([
      {
        documentUrl: 'http://localhost:3000/',
        directive: 'img-src',
        blockedUrl: 'https://img.example/a.png',
        disposition: 'enforce',
      },
    ]);
  });

  it('answers 400 to a body that is not a report, and 413 to an oversized one', async () => {
    expect((await report('application/csp-report', '{"csp-report":')).json()).toEqual({ errorMessage: 'Invalid_Json' });
    const wrongShape = await report('application/csp-report', { hello: 'world' });
    expect(wrongShape.statusCode).toBe(400);
    expect(wrongShape.json().errorMessage).toBe('Validation_Failed');
    const huge = await report('application/csp-report', { 'csp-report': { 'document-uri': 'x'.repeat(20 * 1024) } });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ errorMessage: 'Payload_Too_Large' });
  });

  it('rate limits each client: past the limit, reports are refused (429) and not logged; other clients are unaffected', async () => {
    const flood = { 'csp-report': { 'document-uri': 'http://localhost:3000/', 'violated-directive': 'flood' } };
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await report('application/csp-report', flood, '198.51.100.7')).statusCode);
    expect(statuses.filter((s) => s === 204)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    expect(warnings().filter((l) => l.cspViolation.directive === 'flood')).toHaveLength(20);
    const limited = await report('application/csp-report', flood, '198.51.100.7');
    expect(limited.json()).toEqual({ errorMessage: 'Too_Many_Requests' });
    expect((await report('application/csp-report', flood, '198.51.100.8')).statusCode).toBe(204);
  });
});
