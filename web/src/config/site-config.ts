import { SITE_CONFIG_GLOBAL, SiteConfigSchema, type SiteConfig } from '@portal/contracts';

const defaults: SiteConfig = { contentPreview: false, jurisdictionImageBase: '/images/jurisdictions/' };

/** Settings the server put on window before the app ran (see /api/site-config.js); defaults when absent. */
export function readSiteConfig(
  source: unknown = (globalThis as Record<string, unknown>)[SITE_CONFIG_GLOBAL],
): SiteConfig {
  const parsed = SiteConfigSchema.safeParse(source);
  return parsed.success ? parsed.data : defaults;
}

export const siteConfig = readSiteConfig();
