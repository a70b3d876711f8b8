import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPage } from './support/browser';
import { freePort } from './support/portal-server';
import { portalSuite } from './support/portal-suite';

/** Real vendors are unreachable here: a local server on another origin serves stand-in scripts that record what they see. */
const stubScripts: Record<string, string> = {
  '/analytics.js': `window.__vendor = window.__vendor || []; window.__vendor.push({ name: 'analytics', regions: (window.dataLayer || []).map(e => e.user_region) });`,
  '/chat.js': `window.__vendor = window.__vendor || []; window.__vendor.push({ name: 'chat', supportAddress: window.portalChat && window.portalChat.supportAddress, readyState: document.readyState });`,
};

describe('third-party scripts', () => {
  let stub: Server;
  let stubOrigin: string;

  // Before the portal starts (hooks run in order): its settings name the stub's address.
  beforeAll(async () => {
    const port = await freePort();
    stubOrigin = `http://127.0.0.1:${port}`;
    stub = createServer((req, res) => {
      const body = stubScripts[req.url ?? ''];
      if (!body) return res.writeHead(404).end();
      // CORS: a script checked against an integrity hash is fetched in CORS mode.
      res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' }).end(body);
    });
    await new Promise<void>((r) => stub.listen(port, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => stub?.close(r));
  });

  // This portal has no CMS (content requests answer 502) and its survey script does not exist (404): the browser
  // reports both in the console.
  const noCms = [/status of 502/, /status of 404/];

  const portal = portalSuite({
    env: () => ({
      CMS_URL: 'http://127.0.0.1:9', // no CMS: these pages must work without content too
      ANALYTICS_SCRIPT_URL: `${stubOrigin}/analytics.js`,
      // The hash a vendor would publish: the tag below runs only if the file matches it.
      ANALYTICS_SCRIPT_INTEGRITY: `sha384-${createHash('sha384').update(stubScripts['/analytics.js']!).digest('base64')}`,
      CHAT_SCRIPT_URL: `${stubOrigin}/chat.js`,
      CHAT_SUPPORT_ADDRESS: 'providers-chat@example.org',
      SURVEY_SCRIPT_URL: `${stubOrigin}/missing-survey.js`,
    }),
    // A first visit (the picker is shown on /); tests set the cookies they need.
    pageDefaults: { region: false, allowConsoleErrors: noCms },
  });

  it('admits exactly the configured scripts (by full path) in the CSP', async () => {
    const csp = (await fetch(`${portal.url}/`)).headers.get('content-security-policy')!;
    expect(csp.split(';').find((d) => d.startsWith('script-src'))).toBe(
      `script-src 'self' ${stubOrigin}/analytics.js ${stubOrigin}/chat.js ${stubOrigin}/missing-survey.js`,
    );
    const plain = (await fetch(`${inject('portalUrl')}/`)).headers.get('content-security-policy')!;
    expect(plain.split(';').find((d) => d.startsWith('script-src'))).toBe("script-src 'self'");
  });

  it('loads the analytics tag pinned to its integrity hash, and sends it user_region, again when the jurisdiction changes', async () => {
    const { context, page } = await portal.newPage();
    await context.addCookies([{ name: 'region', value: 'J5A', url: portal.url }]);
    await page.goto('/');
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window as unknown as { __vendor?: { name: string }[] }).__vendor?.find((v) => v.name === 'analytics'),
        ),
      )
      .toMatchObject({ regions: ['J5A'] });
    await page.getByRole('button', { name: /^J8 MAC Part B:/ }).click();
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window as unknown as { dataLayer: { user_region: string }[] }).dataLayer.map((e) => e.user_region),
        ),
      )
      .toEqual(['J5A', 'J8B']);
    await context.close();
  });

  it('loads the chat widget lazily with its support address, and survives a survey script that fails to load', async () => {
    // The survey script's address refuses connections on purpose.
    const { context, page } = await portal.newPage({ allowConsoleErrors: [...noCms, /ERR_CONNECTION_REFUSED/] });
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { __atDomReady: number }).__atDomReady = document.querySelectorAll(
          'script[data-third-party="chat"]',
        ).length;
      });
    });
    await page.goto('/');
    await page.mouse.move(10, 10);
    await page.mouse.down();
    await page.mouse.up();
    const chat = await page.waitForFunction(() =>
      (window as unknown as { __vendor?: { name: string }[] }).__vendor?.find((v) => v.name === 'chat'),
    );
    expect(await chat.jsonValue()).toMatchObject({
      supportAddress: 'providers-chat@example.org',
      readyState: 'complete',
    });
    expect(await page.evaluate(() => (window as unknown as { __atDomReady: number }).__atDomReady)).toBe(0);
    expect(await page.locator('script[data-third-party="survey"]').count()).toBe(1);
    // The page still works after the survey script failed.
    await page.getByRole('heading', { name: 'Get the right info.' }).waitFor();
    await context.close();
  });

  it('adds no third-party script when none is configured', async () => {
    const { context, page } = await openPage(portal.browser, inject('portalUrl'));
    await page.goto('/');
    await page.getByRole('heading', { name: 'Get the right info.' }).waitFor();
    await page.mouse.click(5, 5);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('script[data-third-party]').count()).toBe(0);
    await context.close();
  });
});
