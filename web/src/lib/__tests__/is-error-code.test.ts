import { describe, expect, it } from 'vitest';
import errorCodes from '@portal/contracts/error-codes.json';
import { isErrorCode } from '../error-messages';

describe('isErrorCode: the one test of "is this a code or a sentence to show"', () => {
  it('takes every code of the registry', () => {
    for (const code of Object.keys(errorCodes)) expect(isErrorCode(code), code).toBe(true);
  });

  it('refuses sentences and what is not text', () => {
    for (const message of [
      'The information you entered does not match our records.',
      'This NPI is not valid. Check the 10 digits and try again.',
      'a_lower_case_word',
      '',
      undefined,
      42,
    ])
      expect(isErrorCode(message), String(message)).toBe(false);
  });
});
