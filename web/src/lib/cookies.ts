import Cookies from 'js-cookie';
import { REMEMBER_COOKIE_DAYS } from '@portal/contracts/http-names';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * Cookies live on the parent domain of the host (docs/requirements/public-site.md#cookies: portal.example.com → .example.com), so sibling sites
 * of the contractor share the choice. No Domain attribute on localhost, IP hosts or single-label hosts.
 */
export function cookieDomainFor(hostname: string, override?: string): string | undefined {
  if (override) return override;
  const host = hostname.toLowerCase();
  if (
    !host ||
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    IPV4.test(host) ||
    host.includes(':') ||
    host.startsWith('[')
  )
    return undefined;
  const labels = host.split('.');
  if (labels.length < 2) return undefined;
  return `.${labels.length > 2 ? labels.slice(1).join('.') : host}`;
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
