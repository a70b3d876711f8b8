import { z } from 'zod';

/**
 * Browser-visible settings, served by the portal as /api/site-config.js (a classic script that runs before the
 * SPA, so no request waterfall). Only non-secret values belong here.
 */
export const SiteConfigSchema = z.object({
  contentPreview: z.boolean(),
  jurisdictionImageBase: z.string(),
  cookieDomain: z.string().optional(),
  analyticsScriptUrl: z.string().optional(),
  chatScriptUrl: z.string().optional(),
  chatSupportAddress: z.string().optional(),
  surveyScriptUrl: z.string().optional(),
});
export type SiteConfig = z.infer<typeof SiteConfigSchema>;

export const SITE_CONFIG_GLOBAL = '__PORTAL_CONFIG__';
export const SITE_CONFIG_PATH = '/api/site-config.js';
