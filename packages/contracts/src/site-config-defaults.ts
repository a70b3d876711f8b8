// The site config's global name, path and defaults, without its schemas (site-config.ts, which re-exports them): the
// browser's first download uses them and stays without zod (docs/requirements/platform.md#web-budget).

/** The inactivity timer's defaults: a `SessionTimerConfig` (site-config.ts checks it against the schema's type). */
export const SESSION_TIMER_DEFAULTS = {
  timeoutMs: 1_800_000,
  promptBeforeIdleMs: 900_000,
  throttleMs: 1_000,
  eventsThrottleMs: 200,
};

export const SITE_CONFIG_GLOBAL = '__PORTAL_CONFIG__';
export const SITE_CONFIG_PATH = '/api/site-config.js';
