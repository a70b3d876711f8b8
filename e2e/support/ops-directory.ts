import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import {
  DEMO_DIRECTORY_PASSWORD,
  startDemoDirectory,
  type DemoDirectory,
} from '../../server/src/demo-directory/provider';
import { freePort } from './portal-server';

/**
 * The help-desk console's enterprise directory for a browser test file (docs/requirements/help-desk.md): a real
 * OpenID provider (the demo directory `npm start` runs) started before the file's portal, whose settings `env()` gives
 * (the portal's port is chosen first, as the directory registers its callback address). Stopped after the file.
 */
export function opsDirectory() {
  let directory: DemoDirectory | undefined;
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
    directory = await startDemoDirectory({
      port: 0,
      host: '127.0.0.1',
      publicHost: 'localhost',
      redirectUris: [`http://localhost:${port}/api/ops/auth/callback`],
    });
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
    /** The portal settings that point its console at this directory. */
    env: (): Record<string, string> => ({
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      OIDC_ISSUER: started().issuer,
      OIDC_CLIENT_ID: started().clientId,
      OIDC_CLIENT_SECRET: started().clientSecret,
      OIDC_ALLOW_HTTP: 'true',
      OIDC_REQUIRE_MFA: 'true',
    }),
  };
}

/** Signs in at the directory's own page (already open), as the person typing there would. */
export async function signInAtDirectory(page: Page, username: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(DEMO_DIRECTORY_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** From `/ops` (or `path`), the console's sign-in through the directory, ending signed in. */
export async function signInToConsole(page: Page, username: string, path = '/ops') {
  await page.goto(path);
  await page.getByRole('link', { name: 'Sign in with the contractor directory' }).click();
  await signInAtDirectory(page, username);
  await page.getByTestId('ops-operator').waitFor();
}
