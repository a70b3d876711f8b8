import { describe, expect, it } from 'vitest';
import { MfaEnrollRequest, MfaRequest } from './auth';
import { MfaResetRequest } from './account';
import { SelfReactivationRequest } from './login-help';
import { normaliseOneTimeCode } from './one-time-code';

describe('one-time codes as typed', () => {
  it('drops spaces and hyphens, nothing else', () => {
    expect(normaliseOneTimeCode(' 110 761 ')).toBe('110761');
    expect(normaliseOneTimeCode('110-761')).toBe('110761');
    expect(normaliseOneTimeCode('abcd-efgh  jkmn')).toBe('abcdefghjkmn');
  });

  it('the authenticator setup and the new authenticator accept "110 761" and "110-761" as 110761', () => {
    for (const schema of [MfaEnrollRequest, MfaResetRequest]) {
      expect(schema.parse({ code: '110 761' })).toEqual({ code: '110761' });
      expect(schema.parse({ code: '110-761' })).toEqual({ code: '110761' });
      expect(schema.safeParse({ code: '110 76' }).success).toBe(false);
      expect(schema.safeParse({ code: '11O761' }).success).toBe(false);
    }
  });

  it('the second factor accepts a spaced TOTP code and a recovery code in groups', () => {
    expect(MfaRequest.parse({ code: '110 761' })).toEqual({ code: '110761' });
    expect(MfaRequest.parse({ code: 'ABCD-EFGH-JKMN' })).toEqual({ code: 'ABCDEFGHJKMN' });
    expect(MfaRequest.safeParse({ code: '110 7' }).success).toBe(false);
  });

  it('the reactivation code accepts spaces and hyphens', () => {
    const parsed = SelfReactivationRequest.parse({ step: 'verify-code', username: 'demo.user', code: '123-456' });
    expect(parsed).toMatchObject({ code: '123456' });
  });
});
