import { z } from 'zod/mini';
import { SESSION_TIMER_DEFAULTS } from './site-config-defaults';
import type { Assert, SameShape } from './type-checks';

export * from './site-config-defaults';

/**
 * Browser-visible settings, served by the portal as /api/site-config.js (a classic script that runs before the
 * SPA, so no request waterfall). Only non-secret values belong here.
 */
/** The inactivity timer's settings (docs/requirements/session.md#inactivity-timer-constants). */
export const SessionTimerConfigSchema = z.object({
  /** Inactivity until idle (server logout); the same value as the server's SESSION_IDLE_MS. */
  timeoutMs: z.number().check(z.positive()),
  /** How long before the timeout the prompt shows; must leave the prompt point after the start (below timeoutMs). */
  promptBeforeIdleMs: z.number().check(z.positive()),
  throttleMs: z.number().check(z.nonnegative()),
  eventsThrottleMs: z.number().check(z.nonnegative()),
});
export type SessionTimerConfig = z.infer<typeof SessionTimerConfigSchema>;
/** The defaults (site-config-defaults.ts, zod-free) have exactly the schema's fields. */
type _DefaultsMatch = Assert<SameShape<typeof SESSION_TIMER_DEFAULTS, SessionTimerConfig>>;

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
  sessionTimer: z.optional(SessionTimerConfigSchema),
  /**
   * The login lockout (docs/requirements/session.md#lockout): this many wrong passwords in a row lock an account for
   * `minutes`. The login page warns before the last tries with them.
   */
  loginLockout: z.optional(z.object({ threshold: z.number(), minutes: z.number() })),
});
export type SiteConfig = z.infer<typeof SiteConfigSchema>;
