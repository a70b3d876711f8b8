import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';

/** Origins of the optional third-party scripts; the CSP admits exactly these and nothing else. */
export function thirdPartyOrigins(config: Config): string[] {
  const urls = [config.thirdParty.analyticsScriptUrl, config.thirdParty.chatScriptUrl, config.thirdParty.surveyScriptUrl];
  return [...new Set(urls.filter((u): u is string => !!u).map((u) => new URL(u).origin))];
}

/**
 * Baseline headers on every answer, errors included (helmet registered first, globally): a CSP with no inline
 * script, HSTS, nosniff, strict referrer policy, no framing. Styles allow 'unsafe-inline' because MUI's emotion
 * injects style tags at run time (docs/decisions/0006-csp.md).
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: { config: Config }) => {
  const { config } = options;
  const external = thirdPartyOrigins(config);
  const https = config.publicUrl.startsWith('https://');
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...external],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', ...external],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...external],
        frameSrc: external.length ? external : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
  });
  app.addHook('onSend', async (request, reply) => {
    // API answers are personal or state-changing: never cache them, unless a route chose its own policy.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
});
