import { describe, expect, it } from 'vitest';
import { cookieDomainFor } from '../src/modules/site-config/cookie-domain';
import { siteConfigFor } from '../src/modules/site-config/service';
import { testConfig } from './helpers';

// The region and license cookies' domain (docs/requirements/public-site.md#cookies). These cases were the web's
// `cookieDomainFor` tests; `example.co.uk` gave `.co.uk` there, which browsers refuse.
describe('cookieDomainFor', () => {
  it('uses the parent domain of the host', () => {
    expect(cookieDomainFor('portal.example.com')).toBe('.example.com');
    expect(cookieDomainFor('www.portal.example.co.uk')).toBe('.portal.example.co.uk');
    expect(cookieDomainFor('example.com')).toBe('.example.com');
  });

  it('never sets a public suffix: the host itself when it is the registrable domain', () => {
    expect(cookieDomainFor('portal.example.co.uk')).toBe('.example.co.uk');
    expect(cookieDomainFor('example.co.uk')).toBe('.example.co.uk');
    expect(cookieDomainFor('portal.gov.uk')).toBe('.portal.gov.uk');
    // The list's private part too: browsers refuse a cookie on github.io as on co.uk.
    expect(cookieDomainFor('portal.github.io')).toBe('.portal.github.io');
  });

  it('sets no domain on localhost, IP addresses and single-label hosts', () => {
    for (const host of ['localhost', 'app.localhost', '127.0.0.1', '10.1.2.3', '[::1]', '::1', 'intranet'])
      expect(cookieDomainFor(host), host).toBeUndefined();
  });
});

describe("the site config's cookie domain", () => {
  it("is COOKIE_DOMAIN, else worked out from PUBLIC_URL's host", () => {
    const domainOf = (env: Record<string, string>) => siteConfigFor(testConfig(env)).cookieDomain;
    expect(domainOf({ PUBLIC_URL: 'https://portal.example.co.uk' })).toBe('.example.co.uk');
    expect(domainOf({ PUBLIC_URL: 'https://example.co.uk' })).toBe('.example.co.uk');
    expect(domainOf({ PUBLIC_URL: 'https://portal.example.com', COOKIE_DOMAIN: '.medicare.example' })).toBe(
      '.medicare.example',
    );
    expect(domainOf({ PUBLIC_URL: 'http://localhost:3000' })).toBeUndefined();
  });
});
