import { describe, expect, it } from 'vitest';
import blocklistEntries from './password-blocklist.json';
import { errorCodes } from './errors';
import { checkPassword, PasswordSchema, passwordProblemCodes, passwordRuleResults } from './password-policy';

const blocklist = new Set(blocklistEntries);

describe('password policy', () => {
  it('accepts a long passphrase and refuses one character less than the minimum', () => {
    expect(checkPassword('correct horse battery', { blocklist })).toEqual([]);
    expect(checkPassword('abcdefghijklmn')).toEqual(['Password_Too_Short']);
    expect(checkPassword('abcdefghijklmno')).toEqual([]);
  });

  it('counts characters, not bytes, and refuses more than 128', () => {
    expect(checkPassword('🙂'.repeat(15))).not.toContain('Password_Too_Short');
    expect(checkPassword('x'.repeat(64) + 'y'.repeat(65))).toEqual(['Password_Too_Long']);
    expect(checkPassword('xy'.repeat(63) + 'zw')).toEqual([]);
  });

  it('refuses common passwords, padded ones and repetitions', () => {
    expect(blocklist.size).toBeGreaterThan(4000);
    expect(checkPassword('baseball1234567', { blocklist })).toEqual(['Password_Too_Common']);
    expect(checkPassword('!!PASSWORD1234567', { blocklist })).toEqual(['Password_Too_Common']);
    expect(checkPassword('aaaaaaaaaaaaaaaa', { blocklist })).toEqual(['Password_Too_Common']);
    expect(checkPassword('abcabcabcabcabcabc', { blocklist })).toEqual(['Password_Too_Common']);
  });

  it("refuses the user's own name, username or email words", () => {
    const personal = ['Jane', 'Doe', 'jdoe77', 'jane.doe@clinic.example'];
    expect(checkPassword('my cat likes JANE forever', { personal })).toEqual(['Password_Contains_Personal_Info']);
    expect(checkPassword('visiting clinic every day', { personal })).toEqual(['Password_Contains_Personal_Info']);
    expect(checkPassword('violet lantern orbit tea', { personal })).toEqual([]);
  });

  it('judges each rule on its own for the live checklist, even while the password is too short', () => {
    expect(passwordRuleResults('jane', { personal: ['Jane'], blocklist })).toEqual({
      Password_Too_Short: true,
      Password_Too_Long: false,
      Password_Too_Common: false,
      Password_Contains_Personal_Info: true,
    });
    expect(passwordRuleResults('password', { blocklist }).Password_Too_Common).toBe(true);
    expect(Object.values(passwordRuleResults('violet lantern orbit tea', { blocklist }))).not.toContain(true);
  });

  it('reports length problems through the zod schema with the error code', () => {
    const result = PasswordSchema.safeParse('short');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Password_Too_Short');
  });

  it('every problem code is a registered error code', () => {
    for (const code of [...passwordProblemCodes, 'Password_Reused']) expect(errorCodes).toContain(code);
  });
});
