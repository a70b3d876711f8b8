import type { TestProject } from 'vitest/node';
import { assertChromiumInstalled } from './support/chromium';
import { buildProduction, startPortal } from './support/portal-server';

declare module 'vitest' {
  export interface ProvidedContext {
    portalUrl: string;
  }
}

/** Browser tests run against the production build, started here once for the whole e2e project. */
export default async function setup(project: TestProject) {
  assertChromiumInstalled();
  buildProduction();
  const portal = await startPortal();
  project.provide('portalUrl', portal.url);
  return async () => {
    await portal.stop();
  };
}
