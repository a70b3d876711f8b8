import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { waitForSettled } from './support/browser';
import { layoutShifts, recordLayoutShifts } from './support/layout-shifts';
import { loginEnrolling, loginWithTotp } from './support/login';
import { OPS_PAGE_PATHS, OPS_ROUTES, opsPath } from '@portal/contracts/ops';
import { signInToConsole, opsDirectory } from './support/ops-directory';
import { portalSuite } from './support/portal-suite';

/**
 * Every route as each role that sees it opens it (issue 39): drawn by the server as it stays once hydrated. The
 * page's script is held until the server's drawing has been measured (what the first paint shows on a slow phone),
 * then the page hydrates and loads what it loads; the headings of its first screen and its main area must not have
 * moved, and the layout shift stays ≤ 0.02. A placeholder ("Loading…") that the browser replaces by content of another height fails here.
 * Console errors (React's hydration mismatch) and axe violations fail when the page is left (support/browser.ts).
 * The visitor's public pages are in portal-pages.test.ts; the roles are the demo accounts
 * (docs/requirements/staff-accounts.md#demo-data), and the help-desk console's operator of the demo directory.
 */
const CLS_LIMIT = 0.02;
const ROLES = [
  { role: 'end user', username: 'demo.user.j5' },
  { role: 'end user waiting for approval', username: 'demo.wait.1' },
  { role: 'administrator with waiting requests', username: 'demo.admin.j5' },
  { role: 'administrator held for recertification', username: 'demo.admin.recert' },
] as const;
// Every route a logged-in user can open (web/src/app/router.tsx): the personal pages, and the home page's header.
const LOGGED_IN_PATHS = ['/', '/portal', '/account', '/dde-access', '/admin', '/admin/recertify'];
// The visitor's routes portal-pages.test.ts does not open.
const VISITOR_PATHS = ['/register/user', '/logged-out', '/invitation'];
/** The help-desk console's demo operator (the demo directory, docs/requirements/help-desk.md). */
const HELP_DESK = 'helpdesk';
/** What the operator searches for: a demo person with locations (the search's own answer gives the ids). */
const OPS_SEARCH = 'demo.user.j5';
/**
 * The browser's User-Agent at a width: a phone's at 390 px (the console's record pages place their Actions panel by
 * it before hydration, docs/decisions/0088), the default desktop Chromium's at 1440 px.
 */
const PHONE_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const userAgentAt = (viewport: { width: number }) => (viewport.width < 900 ? PHONE_USER_AGENT : undefined);
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

/**
 * Where the page's headings and main area's top are on the first screen: what a reader sees move when a placeholder
 * is replaced. (Below it, parts of long pages are drawn when they come near, decision 0034; CLS counts what moves on
 * screen.)
 */
const frames = (page: Page) =>
  page.evaluate(() => {
    const onScreen = (el: Element) => el.getBoundingClientRect().top + scrollY < innerHeight;
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return `${Math.round(r.top + scrollY)}+${Math.round(r.height)}`;
    };
    const main = document.querySelector('main');
    return [
      ...Array.from(document.querySelectorAll('main h1, main h2, main h3'))
        .filter(onScreen)
        .map((h) => `${h.tagName} "${h.textContent?.trim()}" at ${box(h)}`),
      `main starts at ${main ? Math.round(main.getBoundingClientRect().top + scrollY) : 'none'}`,
    ];
  });

/**
 * Opens `path` with every script held until the server's HTML has been drawn and measured, then lets the page hydrate
 * and settle, and compares.
 */
async function expectDrawnAsItStays(context: BrowserContext, page: Page, path: string, label: string) {
  await recordLayoutShifts(context);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const hydrated = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/session');
  // Awaited below; a page that fails before then must not leave it rejected and unhandled.
  hydrated.catch(() => undefined);
  const response = await page.goto(path, { waitUntil: 'commit' });
  expect(response?.status(), label).toBeLessThan(400);
  const html = (await response?.text()) ?? '';
  expect(html, `${label} is server-rendered`).toContain('id="portal-server-state"');
  await page.locator('main h1').first().waitFor();
  await page.evaluate(() => document.fonts.ready);
  const drawn = { url: new URL(page.url()).pathname, frames: await frames(page) };
  release();
  await hydrated;
  await page.waitForLoadState('networkidle');
  await waitForSettled(page);
  const after = { url: new URL(page.url()).pathname, frames: await frames(page) };
  // The lines that differ, said in the message (the failures of every route are reported together).
  const moved = [
    ...(after.url === drawn.url ? [] : [`went from ${drawn.url} to ${after.url}`]),
    ...drawn.frames.filter((f) => !after.frames.includes(f)).map((f) => `drawn: ${f}`),
    ...after.frames.filter((f) => !drawn.frames.includes(f)).map((f) => `then: ${f}`),
  ];
  if (moved.length) throw new Error(`${label}: not as the server drew it:\n  ${moved.join('\n  ')}`);
  const { cls, shifts } = await layoutShifts(page);
  expect(cls, `layout shift on ${label}: ${shifts.join('; ')}`).toBeLessThanOrEqual(CLS_LIMIT);
}

describe('every route, per role, drawn by the server as it stays once hydrated', { timeout: 600_000 }, () => {
  const directory = opsDirectory();
  const portal = portalSuite({ env: () => ({ LOGIN_ATTEMPTS_PER_MINUTE: '200', ...directory.env() }) });

  for (const viewport of VIEWPORTS) {
    it(`a first-time visitor at ${viewport.width} px: ${VISITOR_PATHS.join(', ')}`, async () => {
      for (const path of VISITOR_PATHS) {
        const { context, page } = await portal.newPage({ viewport, region: false });
        await expectDrawnAsItStays(context, page, path, `${path} as a first-time visitor at ${viewport.width} px`);
        await context.close();
      }
    });
  }

  for (const { role, username } of ROLES) {
    it(`${role} (${username}): ${LOGGED_IN_PATHS.join(', ')} at 390 and 1440 px`, async () => {
      const login = await portal.newPage({ viewport: VIEWPORTS[1] });
      const secret = DEMO_TOTP_SECRETS[username];
      if (secret) await loginWithTotp(login.page, username, secret);
      else await loginEnrolling(login.page, username);
      const storageState = await login.context.storageState();
      await login.context.close();
      const failures: string[] = [];
      for (const path of LOGGED_IN_PATHS) {
        for (const viewport of VIEWPORTS) {
          const label = `${path} as ${role} at ${viewport.width} px`;
          const { context, page } = await portal.newPage({ viewport, storageState });
          try {
            await expectDrawnAsItStays(context, page, path, label);
            await context.close();
          } catch (error) {
            failures.push(`${label}: ${(error as Error).message.split('\n').slice(0, 30).join('\n')}`);
            await context.close().catch(() => undefined);
          }
        }
      }
      expect(failures, failures.join('\n\n')).toEqual([]);
    });
  }

  it(`the help-desk operator (${HELP_DESK}): the console signed out and in, at 390 and 1440 px`, async () => {
    const failures: string[] = [];
    const check = async (path: string, label: string, options: Parameters<typeof portal.newPage>[0]) => {
      const { context, page } = await portal.newPage({ region: false, ...options });
      try {
        await expectDrawnAsItStays(context, page, path, label);
        await context.close();
      } catch (error) {
        failures.push(`${label}: ${(error as Error).message.split('\n').slice(0, 30).join('\n')}`);
        await context.close().catch(() => undefined);
      }
    };
    // Signed out: the sign-in screen, drawn by the server from the console's own session read.
    for (const viewport of VIEWPORTS)
      await check('/ops', `/ops signed out at ${viewport.width} px`, { viewport, userAgent: userAgentAt(viewport) });

    // The directory's page asks for a missing icon.
    const signIn = await portal.newPage({
      viewport: VIEWPORTS[1],
      region: false,
      allowConsoleErrors: [/status of 404/],
    });
    await signInToConsole(signIn.page, HELP_DESK);
    const storageState = await signIn.context.storageState();
    // A person and one of their locations to open, found as the desk finds them.
    const found = await signIn.page.request.get(`${OPS_ROUTES.search}?q=${OPS_SEARCH}`);
    const { userId } = ((await found.json()).data as { people: { userId: string }[] }).people[0]!;
    const person = await signIn.page.request.get(opsPath(OPS_ROUTES.person, { userId }));
    const { locationId } = ((await person.json()).data as { locations: { locationId: string }[] }).locations[0]!;
    await signIn.context.close();
    const paths = [
      '/ops',
      `/ops?q=${OPS_SEARCH}`,
      opsPath(OPS_PAGE_PATHS.person, { userId }),
      opsPath(OPS_PAGE_PATHS.location, { locationId }),
    ];
    for (const path of paths)
      for (const viewport of VIEWPORTS)
        await check(path, `${path} as the help-desk operator at ${viewport.width} px`, {
          viewport,
          storageState,
          userAgent: userAgentAt(viewport),
        });
    expect(failures, failures.join('\n\n')).toEqual([]);
  });
});
