import { describe, expect, it } from 'vitest';
import { cookieDomainFor } from '../cookies';

// The domain itself is worked out by the server, with the public suffix list (server/test/cookie-domain.test.ts).
describe('cookieDomainFor', () => {
  it("uses the site config's domain when the page's host is within it", () => {
    expect(cookieDomainFor('portal.example.com', '.example.com')).toBe('.example.com');
    expect(cookieDomainFor('example.co.uk', '.example.co.uk')).toBe('.example.co.uk');
    expect(cookieDomainFor('Portal.Example.com', '.example.com')).toBe('.example.com');
    expect(cookieDomainFor('portal.example.com', '.portal.example.com')).toBe('.portal.example.com');
  });
  it('sets no domain without one, or for a host outside it (a browser would refuse the cookie)', () => {
    expect(cookieDomainFor('portal.example.com', undefined)).toBeUndefined();
    expect(cookieDomainFor('localhost', '.example.com')).toBeUndefined();
    expect(cookieDomainFor('portal.example.com', '.medicare.example')).toBeUndefined();
    expect(cookieDomainFor('badexample.com', '.example.com')).toBeUndefined();
  });
});
