import { describe, expect, it } from 'vitest';
import { errorCodes } from './errors';
import places from './error-code-places.json';

/**
 * The CMS's error-message editor says where each message appears (cms/src/portal/provision.js reads this file): every
 * code of the registry has one description, written for an editor, and no description names a code that is gone.
 */
describe('where each error code appears (error-code-places.json)', () => {
  const described: Record<string, unknown> = places;

  it('describes every code of the registry, in its order, and nothing else', () => {
    expect(Object.keys(described)).toEqual(errorCodes);
  });

  it('gives each a sentence an editor can read: not blank, not the code, within the field', () => {
    for (const code of errorCodes) {
      const text = described[code];
      expect(typeof text, code).toBe('string');
      expect((text as string).trim().length, code).toBeGreaterThan(20);
      expect(text as string, code).not.toContain(code);
      expect((text as string).length, code).toBeLessThanOrEqual(300);
    }
  });
});
