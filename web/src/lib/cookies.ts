import Cookies from 'js-cookie';
import { REMEMBER_COOKIE_DAYS } from '@portal/contracts/http-names';

/**
 * The Domain attribute of the region and license cookies (docs/requirements/public-site.md#cookies): the site config's
 * `cookieDomain` (COOKIE_DOMAIN, or the parent domain of PUBLIC_URL's host, never a public suffix, which the server
 * works out: server/src/modules/site-config/cookie-domain.ts) when the page's host is within it. None otherwise (a
 * browser refuses a cookie for another domain): the cookie is then the host's own.
 */
export function cookieDomainFor(hostname: string, domain: string | undefined): string | undefined {
  if (!domain) return undefined;
  const host = hostname.toLowerCase();
  const bare = domain.toLowerCase().replace(/^\./, '');
  return host === bare || host.endsWith(`.${bare}`) ? domain : undefined;
}

export interface CookieContext {
  hostname: string;
  secure: boolean;
  domainOverride?: string;
}

function attributes(context: CookieContext, remember: boolean): Cookies.CookieAttributes {
  const domain = cookieDomainFor(context.hostname, context.domainOverride);
  return {
    path: '/',
    sameSite: 'Lax',
    secure: context.secure,
    ...(domain ? { domain } : {}),
    // Without `expires` the cookie ends with the browser session (docs/requirements/public-site.md#cookies).
    ...(remember ? { expires: REMEMBER_COOKIE_DAYS } : {}),
  };
}

export function currentCookieContext(domainOverride?: string): CookieContext {
  return {
    hostname: window.location.hostname,
    secure: window.location.protocol === 'https:',
    ...(domainOverride ? { domainOverride } : {}),
  };
}

export function readCookie(name: string): string | undefined {
  return Cookies.get(name);
}

/** Writes a cookie that lasts 365 days when remembered, else for the session. */
export function writeCookie(name: string, value: string, remember: boolean, context: CookieContext) {
  Cookies.set(name, value, attributes(context, remember));
}

export function removeCookie(name: string, context: CookieContext) {
  const { domain } = attributes(context, false);
  Cookies.remove(name, { path: '/', ...(domain ? { domain } : {}) });
}
