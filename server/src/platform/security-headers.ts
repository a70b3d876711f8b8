import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { REQUEST_ID_HEADER } from '@portal/contracts/http';
import type { Config } from '../config';
import { CSP_REPORT_GROUP, CSP_REPORT_PATH } from './csp-report';

function thirdPartyScriptUrls(config: Config): URL[] {
  const urls = [
    config.thirdParty.analyticsScriptUrl,
    config.thirdParty.chatScriptUrl,
    config.thirdParty.surveyScriptUrl,
  ];
  return urls.filter((u): u is string => !!u).map((u) => new URL(u));
}

/**
 * Origins of the optional third-party scripts: what the loaded scripts may connect to, show images from and frame
 * (the vendors choose those paths, so they are admitted by origin).
 */
export function thirdPartyOrigins(config: Config): string[] {
  return [...new Set(thirdPartyScriptUrls(config).map((u) => u.origin))];
}

/**
 * `script-src` entries for the third-party scripts: each script's full path, not its whole origin, so another file
 * on the vendor's host (or a host shared by many customers) cannot be loaded. CSP ignores the query string, and
 * requires `;` and `,` in a path to be percent-encoded.
 */
export function thirdPartyScriptSources(config: Config): string[] {
  const sources = thirdPartyScriptUrls(config).map(
    (u) => `${u.origin}${u.pathname.replace(/;/g, '%3B').replace(/,/g, '%2C')}`,
  );
  return [...new Set(sources)];
}

/** The Reporting API endpoint list named by the CSP's `report-to` (browsers need an absolute URL here). */
export function reportingEndpointsHeader(config: Config): string {
  return `${CSP_REPORT_GROUP}="${new URL(CSP_REPORT_PATH, config.publicUrl).href}"`;
}

/** `framedBy`: the one origin that may frame the page (the preview pages'); none by default. */
export function helmetOptions(config: Config, framedBy?: string): HelmetOptions {
  const external = thirdPartyOrigins(config);
  const https = config.publicUrl.startsWith('https://');
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...thirdPartyScriptSources(config)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', ...external],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...external],
        frameSrc: external.length ? external : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: [framedBy ?? "'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
        // Violations are reported to the portal's log: report-to for current browsers, report-uri for the rest.
        reportUri: [CSP_REPORT_PATH],
        reportTo: [CSP_REPORT_GROUP],
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    // X-Frame-Options cannot name an origin: left out where frame-ancestors admits one.
    xFrameOptions: framedBy ? false : { action: 'deny' },
  };
}

/**
 * The options for the editors' preview pages (`/preview/…`, content/preview.ts): the same policy, except that the CMS
 * admin (CMS_PUBLIC_URL), and only it, may frame them, as Strapi's preview shows the page in an iframe.
 */
export function previewPageHelmetOptions(config: Config): HelmetOptions {
  return helmetOptions(config, config.cms.adminOrigin);
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
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : headers).header(REQUEST_ID_HEADER, request.id);
    done();
  });
});
