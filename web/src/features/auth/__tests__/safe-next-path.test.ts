import { describe, expect, it } from 'vitest';
import { safeNextPath } from '../safe-next-path';

describe('safeNextPath', () => {
  it('keeps a same-site path with its query and fragment', () => {
    expect(safeNextPath('/topics/appeals?x=1#part')).toBe('/topics/appeals?x=1#part');
  });

  it('answers / for anything that could leave the site or is missing', () => {
    for (const next of [
      null,
      '',
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      'topics/x',
    ]) {
      expect(safeNextPath(next)).toBe('/');
    }
  });

  it('answers the fallback for a dead end, with or without a query, fragment or trailing slash', () => {
    for (const next of ['/verify-email', '/verify-email/', '/verify-email?x=1#token=a'])
      expect(safeNextPath(next, '/portal', ['/verify-email'])).toBe('/portal');
    expect(safeNextPath('/account', '/portal', ['/verify-email'])).toBe('/account');
  });
});
