import { z } from 'zod/mini';

/**
 * Browser-visible settings, served by the portal as /api/site-config.js (a classic script that runs before the
 * SPA, so no request waterfall). Only non-secret values belong here.
 */
export const SiteConfigSchema = z.object({
  contentPreview: z.boolean(),
  jurisdictionImageBase: z.string(),
  cookieDomain: z.optional(z.string()),
  analyticsScriptUrl: z.optional(z.string()),
  /** Subresource Integrity hashes, where the vendor publishes one for its script. */
  analyticsScriptIntegrity: z.optional(z.string()),
  chatScriptUrl: z.optional(z.string()),
  chatScriptIntegrity: z.optional(z.string()),
  chatSupportAddress: z.optional(z.string()),
  surveyScriptUrl: z.optional(z.string()),
  surveyScriptIntegrity: z.optional(z.string()),
});
export type SiteConfig = z.infer<typeof SiteConfigSchema>;

export const SITE_CONFIG_GLOBAL = '__PORTAL_CONFIG__';
export const SITE_CONFIG_PATH = '/api/site-config.js';
