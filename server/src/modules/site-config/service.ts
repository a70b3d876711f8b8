import { SESSION_TIMER_DEFAULTS, SITE_CONFIG_GLOBAL, type SiteConfig } from '@portal/contracts/site-config';
import type { Config } from '../../config';
import { cookieDomainFor } from './cookie-domain';

/** The browser-visible settings (SiteConfig) of this server's configuration. */
export function siteConfigFor(config: Config): SiteConfig {
  const { thirdParty } = config;
  const cookieDomain = config.cookieDomain ?? cookieDomainFor(new URL(config.publicUrl).hostname);
  return {
    // Drafts reach the editors' preview page only (content/preview.ts), never through this switch.
    contentPreview: false,
    jurisdictionImageBase: config.jurisdictionImageBase,
    sessionTimer: {
      ...SESSION_TIMER_DEFAULTS,
      timeoutMs: config.sessions.idleMs,
      promptBeforeIdleMs: config.sessions.promptBeforeIdleMs,
    },
    loginLockout: {
      threshold: config.login.lockoutThreshold,
      minutes: Math.round(config.login.lockoutDurationMs / 60_000),
    },
    ...(cookieDomain ? { cookieDomain } : {}),
    ...(thirdParty.analyticsScriptUrl ? { analyticsScriptUrl: thirdParty.analyticsScriptUrl } : {}),
    ...(thirdParty.chatScriptUrl ? { chatScriptUrl: thirdParty.chatScriptUrl } : {}),
    ...(thirdParty.chatSupportAddress ? { chatSupportAddress: thirdParty.chatSupportAddress } : {}),
    ...(thirdParty.surveyScriptUrl ? { surveyScriptUrl: thirdParty.surveyScriptUrl } : {}),
    ...(thirdParty.analyticsScriptIntegrity ? { analyticsScriptIntegrity: thirdParty.analyticsScriptIntegrity } : {}),
    ...(thirdParty.chatScriptIntegrity ? { chatScriptIntegrity: thirdParty.chatScriptIntegrity } : {}),
    ...(thirdParty.surveyScriptIntegrity ? { surveyScriptIntegrity: thirdParty.surveyScriptIntegrity } : {}),
  };
}

/**
 * The settings as the classic script index.html loads before the SPA: no inline script (CSP) and no extra round trip
 * before the first render.
 */
export function siteConfigScript(config: Config): string {
  // Escape characters that could end a script context or break older parsers.
  const json = JSON.stringify(siteConfigFor(config))
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `window.${SITE_CONFIG_GLOBAL} = ${json};\n`;
}
