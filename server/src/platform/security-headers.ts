import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';

/** Origins of the optional third-party scripts; the CSP admits exactly these and nothing else. */
export function thirdPartyOrigins(config: Config): string[] {
  const urls = [config.thirdParty.analyticsScriptUrl, config.thirdParty.chatScriptUrl, config.thirdParty.surveyScriptUrl];
  return [...new Set(urls.filter((u): u is string => !!u).map((u) => new URL(u).origin))];
}

export function helmetOptions(config: Config): HelmetOptions {
  const external = thirdPartyOrigins(config);
  const https = config.publicUrl.startsWith('https://');
  return {
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
  };
}

/**
 * The headers helmet sets for these options. They depend on configuration only (no nonces), so they are worked
 * out once at start by running helmet's middleware against a recording response.
 */
export function staticSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader() {},
    getHeader() {
      return undefined;
    },
  };
  let failure: unknown;
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * Baseline headers and the request id on every answer, errors included (set in the first onRequest hook, before anything can fail):
 * a CSP with no inline script, HSTS, nosniff, strict referrer policy, no framing. Styles allow 'unsafe-inline'
 * because MUI's emotion injects style tags at run time (docs/decisions/0006-csp.md). The header set is computed
 * once (by the caller, `staticSecurityHeaders`): @fastify/helmet rebuilt helmet on every request, which cost a third of
 * the throughput of cached content.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: { headers: Record<string, string> }) => {
  const { headers } = options;
  const apiHeaders = { ...headers, 'cache-control': 'no-store' };
  app.addHook('onRequest', (request, reply, done) => {
    // API answers are personal or state-changing: never cached, unless the route sets its own cache-control
    // (which replaces this one). Set here rather than in an onSend hook, which every answer would pay for.
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : headers).header('x-request-id', request.id);
    done();
  });
});
