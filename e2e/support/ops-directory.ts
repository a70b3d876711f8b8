import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import {
  DEMO_DIRECTORY_PASSWORD,
  directoryEnv,
  startTestDirectory,
  type DemoDirectory,
} from '../../server/test/support/directory';
import { requestsAnswered } from './browser';
import { freePort } from './portal-server';

/**
 * The help-desk console's enterprise directory for a browser test file (docs/requirements/help-desk.md): the real
 * OpenID provider `npm start` runs, started before the file's portal. The portal's port is chosen first, because the
 * directory registers the portal's callback address; `env()` gives the portal's settings (that port included).
 */
export function opsDirectory() {
  let directory: DemoDirectory | undefined;
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
    directory = await startTestDirectory(`http://localhost:${port}`);
  });
  afterAll(async () => {
    await directory?.close();
  });
  const started = () => {
    if (!directory) throw new Error('opsDirectory: read it inside hooks and tests');
    return directory;
  };
  return {
    get directory() {
      return started();
    },
    env: (): Record<string, string> => ({
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      ...directoryEnv(started()),
    }),
  };
}

/** Signs in at the directory's own page (already open), as the person typing there would. */
export async function signInAtDirectory(page: Page, username: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(DEMO_DIRECTORY_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Resolves once the console page the directory sends the browser back to has hydrated: its session check (`GET
 * /api/session`, an effect) has been answered. Call it before the directory's last step. The server draws the console
 * signed in (docs/decisions/0088-console-pages-drawn-signed-in.md), so its buttons are on screen before they work;
 * the directory, on its own origin, makes no such call.
 */
export async function consoleHydrated(page: Page) {
  await page.waitForResponse((res) => new URL(res.url()).pathname === '/api/session');
  // The console's parts that hydrate on their own (its search form) have their code too.
  await requestsAnswered(page);
}

/** From `/ops` (or `path`), the console's sign-in through the directory, ending signed in on a hydrated page. */
export async function signInToConsole(page: Page, username: string, path = '/ops') {
  await page.goto(path);
  await page.getByRole('link', { name: 'Sign in with the contractor directory' }).click();
  await page.getByLabel('Username').waitFor();
  const hydrated = consoleHydrated(page);
  await signInAtDirectory(page, username);
  await page.getByTestId('ops-operator').waitFor();
  await hydrated;
}
