import type { SessionTimerConfig } from '@portal/contracts';
import { SESSION_TIMER_DEFAULTS } from '@portal/contracts/site-config-defaults';
import { siteConfig } from '../../config/site-config';

/**
 * The inactivity timer's settings from the site config (server settings, so browser tests can shorten them),
 * defaults per docs/requirements/session.md#inactivity-timer-constants. The prompt point must come before the
 * timeout: a prompt time as long as the timeout would prompt at once, a longer one never.
 */
export function readSessionTimerConfig(
  config: SessionTimerConfig = siteConfig.sessionTimer ?? SESSION_TIMER_DEFAULTS,
): SessionTimerConfig {
  if (!(config.promptBeforeIdleMs > 0 && config.promptBeforeIdleMs < config.timeoutMs)) {
    throw new Error(
      `Session timer: promptBeforeIdleMs (${config.promptBeforeIdleMs}) must be below timeoutMs (${config.timeoutMs})`,
    );
  }
  return config;
}
