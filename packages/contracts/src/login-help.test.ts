import { describe, expect, it } from 'vitest';
import {
  ForgotPasswordRequest,
  ForgotUsernameRequest,
  ResetPasswordRequest,
  SelfReactivationRequest,
} from './login-help';
import { FindAdminRequest } from './find-admin';
import { DdeSubmitRequest } from './dde-access';

const ok = (schema: { safeParse: (v: unknown) => { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

describe('login-help contracts', () => {
  it('dates of birth: real calendar days from 1900-01-01 to today only', () => {
    const dob = (d: string) => ok(ForgotUsernameRequest, { email: 'a@example.com', dob: d });
    expect(['1900-01-01', '2024-02-29'].map(dob)).toEqual([true, true]);
    expect(dob('2099-12-31')).toBe(false);
    expect(['1899-12-31', '2100-01-01', '2023-02-29', '1980-13-01', '01/01/1980', ''].map(dob)).toEqual(
      Array(6).fill(false),
    );
    const missing = ForgotUsernameRequest.safeParse({ email: 'a@example.com' });
    expect(missing.success).toBe(false);
  });

  it('refuse unknown fields and control characters (PostgreSQL text cannot hold a NUL)', () => {
    expect(ok(ForgotPasswordRequest, { username: 'u', email: 'a@example.com', isInternal: false })).toBe(true);
    expect(ok(ForgotPasswordRequest, { username: 'u', email: 'a@example.com', isInternal: false, x: 1 })).toBe(false);
    expect(ok(ForgotPasswordRequest, { username: 'a\u0000b', email: 'a@example.com', isInternal: false })).toBe(false);
    expect(ok(ForgotUsernameRequest, { email: 'a\u0000@example.com', dob: '1980-01-01' })).toBe(false);
    expect(
      ok(SelfReactivationRequest, { step: 'verify-answer', username: 'u', code: '123456', answer: 'a\u0007' }),
    ).toBe(false);
  });

  it('steps are told apart by `step`; each step takes only its own fields', () => {
    const token = 'A'.repeat(43);
    expect(ok(ResetPasswordRequest, { step: 'question', token })).toBe(true);
    expect(ok(ResetPasswordRequest, { step: 'question', token, answer: 'x' })).toBe(false);
    expect(ok(ResetPasswordRequest, { step: 'set-password', token, answer: 'x', newPassword: 'y' })).toBe(true);
    expect(ok(ResetPasswordRequest, { step: 'question', token: 'not a token!' })).toBe(false);
    expect(ok(SelfReactivationRequest, { step: 'request-code', username: 'u', dob: '1980-01-01' })).toBe(true);
    expect(ok(SelfReactivationRequest, { step: 'other', username: 'u' })).toBe(false);
  });

  it('find-admin identifiers are normalised as people type them', () => {
    expect(FindAdminRequest.parse({ npi: '1234567893', ptan: 'ab-1234', tin: '12-3456789' })).toEqual({
      npi: '1234567893',
      ptan: 'AB1234',
      tin: '123456789',
    });
  });

  it('DDE comments keep line breaks but no other control characters', () => {
    const base = {
      idempotencyKey: '5b0c8f9e-3c1a-4d0e-9a44-2f7f0b6c1d2e',
      locationId: '5b0c8f9e-3c1a-4d0e-9a44-2f7f0b6c1d2f',
      requestType: 'new',
      ddeAccessType: 'inquiry',
      submitterId: 's1',
      networkServiceVendor: 'Vendor',
    };
    expect(ok(DdeSubmitRequest, { ...base, comments: 'line one\nline two' })).toBe(true);
    expect(ok(DdeSubmitRequest, { ...base, comments: 'nul\u0000' })).toBe(false);
    expect(ok(DdeSubmitRequest, { ...base, ddeAccessType: 'everything' })).toBe(false);
  });
});
