import type { SiteConfig } from '@portal/contracts';
import { SITE_CONFIG_GLOBAL } from '@portal/contracts/site-config-defaults';

const defaults: SiteConfig = { contentPreview: false, jurisdictionImageBase: '/images/jurisdictions/' };

/**
 * Settings the server put on window before the app ran (see /api/site-config.js); defaults when absent. The server
 * writes them from a `SiteConfig` its compiler checked, so they are not parsed again here: a schema would bring zod
 * into every page's first download (docs/requirements/platform.md#web-budget).
 */
export function readSiteConfig(
  source: unknown = (globalThis as Record<string, unknown>)[SITE_CONFIG_GLOBAL],
): SiteConfig {
  const config = source as Partial<SiteConfig> | null | undefined;
  return typeof config === 'object' &&
    config !== null &&
    typeof config.contentPreview === 'boolean' &&
    typeof config.jurisdictionImageBase === 'string'
    ? (config as SiteConfig)
    : defaults;
}

export const siteConfig = readSiteConfig();
