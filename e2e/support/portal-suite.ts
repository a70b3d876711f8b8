import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { tokenFile } from '../../server/src/content/handover';
import { launchBrowser, openPage, withDialogsCompleted, type OpenPageOptions } from './browser';
import { startPortal, type RunningPortal } from './portal-server';

export interface SuitePageOptions extends OpenPageOptions {
  /**
   * The jurisdiction the visitor chose before, with the license accepted (the cookies the dialogs set): J5A unless
   * given. `false`: a first visit, so the jurisdiction picker and the license dialog are due.
   */
  region?: string | false;
}

export interface PortalSuiteOptions {
  /**
   * Settings of a portal of this file's own (short timeouts, the mail viewer, more demo data…). It uses the shared
   * CMS unless they name another `CMS_URL`; a function is called when the portal starts (for settings known only
   * then, e.g. a stub server's port). Without them the tests use the shared portal global-setup started.
   */
  env?: Record<string, string> | (() => Record<string, string>);
  /**
   * With `env`: work on the file's own portal's data folder before it starts for the tests, e.g. a first start that
   * seeds the demo accounts (`start()`, then stop it) and an edit of its database. The suite removes the folder after.
   */
  prepare?: (portal: { dataDir: string; start: () => Promise<RunningPortal> }) => Promise<void>;
  /** What every `newPage()` starts with unless the call says otherwise (console errors the flows cause, a viewport). */
  pageDefaults?: SuitePageOptions;
}

export interface PortalSuite {
  /** The portal's address (the browser pages' base URL). */
  readonly url: string;
  readonly browser: Browser;
  /** A fresh browser context and page on the portal, checked on every screen it leaves (`openPage`). */
  newPage(options?: SuitePageOptions): ReturnType<typeof openPage>;
}

/**
 * The setup every browser test file shares: in the enclosing describe (or the file), before the tests a Chromium
 * and, when `env` is given, a portal of the file's own are started; after them both are stopped. The getters are
 * read inside hooks and tests, once the suite has started.
 */
export function portalSuite(options: PortalSuiteOptions = {}): PortalSuite {
  let browser: Browser | undefined;
  let ownPortal: RunningPortal | undefined;
  let ownDataDir: string | undefined;
  const sharedUrl = inject('portalUrl');

  beforeAll(async () => {
    if (options.env) {
      const env = typeof options.env === 'function' ? options.env() : options.env;
      // The shared CMS hands its API token to the shared portal through a file in that portal's data folder.
      const sharedCms: Record<string, string> =
        'CMS_URL' in env
          ? {}
          : {
              CMS_URL: inject('cmsUrl'),
              CMS_TOKEN: readFileSync(tokenFile(inject('portalDataDir')), 'utf8').trim(),
            };
      const settings = { ...sharedCms, ...env };
      if (options.prepare) {
        const dataDir = (ownDataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-')));
        await options.prepare({ dataDir, start: () => startPortal(settings, { dataDir }) });
      }
      ownPortal = await startPortal(settings, ownDataDir ? { dataDir: ownDataDir } : {});
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await ownPortal?.stop();
    if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
  });

  const started = () => {
    if (!browser) throw new Error('portalSuite: read its browser and url inside hooks and tests');
    return { browser, url: ownPortal?.url ?? sharedUrl };
  };

  return {
    get url() {
      return started().url;
    },
    get browser() {
      return started().browser;
    },
    async newPage(pageOptions = {}) {
      const { browser, url } = started();
      const { region = 'J5A', ...openOptions } = { ...options.pageDefaults, ...pageOptions };
      const opened = await openPage(browser, url, openOptions);
      if (region !== false) await withDialogsCompleted(opened.context, url, region);
      return opened;
    },
  };
}
