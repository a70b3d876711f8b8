import { parse } from 'tldts';

/**
 * The Domain of the `region` and `amaApproved` cookies when COOKIE_DOMAIN is unset
 * (docs/requirements/public-site.md#cookies): the parent domain of the portal's host, so the contractor's sibling
 * sites share the choice, but never a public suffix, which browsers refuse: `portal.example.com` → `.example.com`,
 * `example.co.uk` → `.example.co.uk` (not `.co.uk`), `portal.github.io` → `.portal.github.io` (the list's private
 * part counts too). None on localhost, IP addresses and single-label hosts. Worked out here with the public suffix
 * list (`tldts`), which in the browser would add about 48 KB gzip to every page.
 */
export function cookieDomainFor(hostname: string): string | undefined {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return undefined;
  const { domain, isIp } = parse(host, { allowPrivateDomains: true });
  if (isIp || !domain) return undefined;
  return `.${host === domain ? domain : host.slice(host.indexOf('.') + 1)}`;
}
