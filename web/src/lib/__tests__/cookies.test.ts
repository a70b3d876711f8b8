import { describe, expect, it } from 'vitest';
import { cookieDomainFor } from '../cookies';

describe('cookieDomainFor', () => {
  it('uses the parent domain of the host', () => {
    expect(cookieDomainFor('portal.example.com')).toBe('.example.com');
    expect(cookieDomainFor('www.portal.example.co.uk')).toBe('.portal.example.co.uk');
    expect(cookieDomainFor('example.com')).toBe('.example.com');
  });
  it('sets no domain on localhost, IP addresses and single-label hosts', () => {
    for (const host of ['localhost', 'app.localhost', '127.0.0.1', '10.1.2.3', '[::1]', '::1', 'intranet'])
      expect(cookieDomainFor(host), host).toBeUndefined();
  });
  it('lets COOKIE_DOMAIN override the computed domain', () => {
    expect(cookieDomainFor('portal.example.com', '.medicare.example')).toBe('.medicare.example');
    expect(cookieDomainFor('localhost', '.example.com')).toBe('.example.com');
  });
});
