import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SESSION_TIMER_DEFAULTS,
  SITE_CONFIG_GLOBAL,
  SITE_CONFIG_PATH,
  type SiteConfig,
} from '@portal/contracts/site-config';
import type { Config } from '../../config';

export function siteConfigFor(config: Config): SiteConfig {
  const { thirdParty } = config;
  return {
    contentPreview: config.cms.preview,
    jurisdictionImageBase: config.jurisdictionImageBase,
    sessionTimer: {
      ...SESSION_TIMER_DEFAULTS,
      timeoutMs: config.sessions.idleMs,
      promptBeforeIdleMs: config.sessions.promptBeforeIdleMs,
    },
    ...(config.cookieDomain ? { cookieDomain: config.cookieDomain } : {}),
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
 * The browser-visible settings as a classic script that index.html loads before the SPA: no inline script
 * (CSP) and no extra round trip before the first render.
 */
export const siteConfigRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  // Escape characters that could end a script context or break older parsers.
  const json = JSON.stringify(siteConfigFor(options.config))
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  const body = `window.${SITE_CONFIG_GLOBAL} = ${json};\n`;
  // A script, not JSON, so no JSON response schema: its shape is SiteConfig, checked by the compiler.
  app.get(
    SITE_CONFIG_PATH,
    {
      schema: { summary: 'The browser-visible settings (SiteConfig) as a classic script index.html loads' },
      config: {
        answers: { 200: { description: `window.${SITE_CONFIG_GLOBAL} = {…};`, contentType: 'text/javascript' } },
      },
    },
    async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(body),
  );
};
