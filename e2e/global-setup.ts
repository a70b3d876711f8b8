import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { assertChromiumInstalled } from './support/chromium';
import { startCms } from './support/cms';
import { buildProduction, freePort, startPortal } from './support/portal-server';

declare module 'vitest' {
  export interface ProvidedContext {
    portalUrl: string;
    cmsUrl: string;
    /** The shared portal's data folder: holds the CMS token a test's own portal (other settings) can reuse. */
    portalDataDir: string;
  }
}

/**
 * Browser tests run against the production build of the portal and a real Strapi CMS, started here once for
 * the whole e2e project. The CMS's webhook points at the portal so editors' changes reach it.
 */
export default async function setup(project: TestProject) {
  assertChromiumInstalled();
  buildProduction();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const cms = await startCms({ portalDataDir: dataDir, webhookUrl: `http://localhost:${port}/api/content/webhook` });
  const portal = await startPortal({ CMS_URL: cms.url }, { port, dataDir });
  project.provide('portalUrl', portal.url);
  project.provide('cmsUrl', cms.url);
  project.provide('portalDataDir', dataDir);
  return async () => {
    await portal.stop();
    await cms.stop();
  };
}
