import { describe, expect, it } from 'vitest';
import {
  dateOfBirthSchema,
  EmailSchema,
  emailKey,
  latestDayOnEarth,
  maskPhone,
  pastDateSchema,
  PhoneSchema,
  sameEmail,
  SecurityAnswerAttemptSchema,
  SecurityAnswerSchema,
  SecurityQuestionsSchema,
  UsernameLookupSchema,
  UsernameSchema,
} from './fields';
import { maskTin } from './identifiers';
import { ForgotPasswordRequest, forgotUsernameRequest, selfReactivationRequest } from './login-help';
import { selfRegistrationRequest, validateAuthorityRequest } from './registration';

type Schema = { safeParse: (v: unknown) => { success: boolean; data?: unknown; error?: { issues: Issue[] } } };
type Issue = { path: PropertyKey[]; message: string };

/** The first message a value gets, or `ok` (with the parsed value) when it is accepted. */
function verdict(schema: Schema, value: unknown): string {
  const result = schema.safeParse(value);
  return result.success ? `ok ${JSON.stringify(result.data)}` : result.error!.issues.map((i) => i.message).join(',');
}

/** Each row: what is typed, and what the rule answers (`ok <parsed>` or the message). */
function expectTable(schema: Schema, rows: [unknown, string][]) {
  expect(rows.map(([value]) => [value, verdict(schema, value)])).toEqual(rows);
}

const today = () => '2026-11-26';

describe('field rules: one table per field (docs/decisions/0031-field-rules.md)', () => {
  it('date of birth: a real day from 1900-01-01 up to today; after today is its own message', () => {
    expectTable(dateOfBirthSchema(today), [
      ['1900-01-01', 'ok "1900-01-01"'],
      ['1980-02-29', 'ok "1980-02-29"'],
      ['2026-11-26', 'ok "2026-11-26"'],
      ['2026-11-27', 'Date_Of_Birth_In_Future'],
      ['2030-01-01', 'Date_Of_Birth_In_Future'],
      ['2099-12-31', 'Date_Of_Birth_In_Future'],
      ['1899-12-31', 'Date_Of_Birth_Invalid'],
      ['2100-01-01', 'Date_Of_Birth_Invalid'],
      ['1981-02-29', 'Date_Of_Birth_Invalid'],
      ['01/01/1980', 'Date_Of_Birth_Invalid'],
      ['', 'Date_Of_Birth_Invalid'],
      [undefined, 'Date_Of_Birth_Invalid'],
      [19800101, 'Date_Of_Birth_Invalid'],
    ]);
  });

  it('"today" is asked at each check, so a moved clock moves the limit', () => {
    let day = '2026-01-01';
    const schema = pastDateSchema({ invalid: 'bad', future: 'future' }, () => day);
    expect(verdict(schema, '2026-06-01')).toBe('future');
    day = '2026-06-01';
    expect(verdict(schema, '2026-06-01')).toBe('ok "2026-06-01"');
  });

  it('the server refuses only a day no time zone has reached (UTC+14)', () => {
    expect(latestDayOnEarth(new Date('2026-11-26T09:59:59Z'))).toBe('2026-11-26');
    expect(latestDayOnEarth(new Date('2026-11-26T10:00:00Z'))).toBe('2026-11-27');
  });

  it('every request with a date of birth or of service uses the rule (forms and server alike)', () => {
    const future = '2035-05-05';
    expect(verdict(forgotUsernameRequest(today), { email: 'a@example.com', dob: future })).toBe(
      'Date_Of_Birth_In_Future',
    );
    expect(verdict(selfReactivationRequest(today), { step: 'request-code', username: 'robin.q', dob: future })).toBe(
      'Date_Of_Birth_In_Future',
    );
    const registration = selfRegistrationRequest(today).safeParse({ dob: future });
    expect(registration.error?.issues.find((i) => i.path[0] === 'dob')?.message).toBe('Date_Of_Birth_In_Future');
    const authority = validateAuthorityRequest(today).safeParse({
      npi: '1234567893',
      validationToken: 'v'.repeat(40),
      financialLookupSelector: 'patient',
      patientMbi: '1EG4-TE5-MK73',
      dateOfService: '2026-11-27',
    });
    expect(authority.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'dateOfService: The date of service cannot be in the future. Enter the date the patient was seen.',
    ]);
  });

  it('email: one rule everywhere; ASCII only, a dot in the domain, at most 254 characters', () => {
    expectTable(EmailSchema, [
      ['kelly@example.com', 'ok "kelly@example.com"'],
      ['  Kelly.Ng+portal@Example.ORG ', 'ok "Kelly.Ng+portal@Example.ORG"'],
      ['\u212Aelly@example.com', 'Email_Invalid'],
      ['kelly@ex\u0430mple.com', 'Email_Invalid'],
      ['demo.user.j5@example', 'Email_Invalid'],
      ['kelly@', 'Email_Invalid'],
      ['kelly example.com', 'Email_Invalid'],
      ['kelly@example.com\u0000', 'Email_Invalid'],
      [`${'a'.repeat(64)}@${'b'.repeat(186)}.com`, 'Email_Invalid'],
      ['', 'Email_Invalid'],
      [undefined, 'Email_Invalid'],
    ]);
    for (const schema of [forgotUsernameRequest(today), ForgotPasswordRequest])
      expect(
        schema.safeParse({ email: 'demo.user.j5@example', dob: '1980-01-01', username: 'u', isInternal: false })
          .success,
      ).toBe(false);
  });

  it('email comparison folds ASCII case only: a look-alike never matches', () => {
    expect(emailKey(' Kelly@Example.COM ')).toBe('kelly@example.com');
    expect(sameEmail('KELLY@example.com', 'kelly@EXAMPLE.com')).toBe(true);
    expect(sameEmail('\u212Aelly@example.com', 'kelly@example.com')).toBe(false);
    expect(emailKey('\u212Aelly@example.com')).not.toBe('kelly@example.com');
  });

  it('new username: 6 to 30 letters, digits, dots, dashes, underscores, from a letter', () => {
    expectTable(UsernameSchema, [
      ['robin.q', 'ok "robin.q"'],
      ['  Robin_Q-1 ', 'ok "Robin_Q-1"'],
      [`r${'x'.repeat(29)}`, `ok "r${'x'.repeat(29)}"`],
      [`r${'x'.repeat(30)}`, 'Username_Invalid'],
      ['robin', 'Username_Invalid'],
      ['1robin', 'Username_Invalid'],
      ['robin q', 'Username_Invalid'],
      ['r\u00f6bin.q', 'Username_Invalid'],
      [undefined, 'Username_Invalid'],
    ]);
  });

  it('username to look an account up: trimmed, 1 to 100 characters, no control characters', () => {
    expect(verdict(UsernameLookupSchema, ' demo.admin.J5A ')).toBe('ok "demo.admin.J5A"');
    expect(verdict(UsernameLookupSchema, 'x'.repeat(100))).toBe(`ok "${'x'.repeat(100)}"`);
    for (const bad of ['', '   ', 'x'.repeat(101), 'a\u0000b'])
      expect(UsernameLookupSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('phone: 10 US digits as typed, stored as the digits; masked to the last four', () => {
    expectTable(PhoneSchema, [
      ['410-555-0123', 'ok "4105550123"'],
      ['+1 (410) 555.0123', 'ok "4105550123"'],
      ['1 410 555 0123', 'ok "4105550123"'],
      ['110-555-0123', 'Phone_Invalid'],
      ['555-0123', 'Phone_Invalid'],
      ['410-555-01234', 'Phone_Invalid'],
      ['phone', 'Phone_Invalid'],
    ]);
    expect(maskPhone('4105550123')).toBe('***-***-0123');
    expect(maskPhone(null)).toBeNull();
  });

  it('TIN: one mask, the last four digits only', () => {
    expect(maskTin('123456789')).toBe('*****6789');
  });

  it('security answer being set: 3 to 100 characters once normalised', () => {
    expectTable(SecurityAnswerSchema, [
      ['Blue  Honda ', 'ok "Blue  Honda"'],
      ['Bee', 'ok "Bee"'],
      ['ab', 'Security_Answer_Invalid'],
      ['  a  b  ', 'ok "a  b"'],
      ['a'.repeat(100), `ok "${'a'.repeat(100)}"`],
      ['a'.repeat(101), 'Security_Answer_Invalid'],
      ['a\u0007b', 'Security_Answer_Invalid'],
      [undefined, 'Security_Answer_Invalid'],
    ]);
  });

  it('security answer as an attempt: anything a stored answer could be, nothing else', () => {
    expect(SecurityAnswerAttemptSchema.safeParse('x').success).toBe(true);
    for (const bad of ['', 'a'.repeat(101), 'a\u0000'])
      expect(SecurityAnswerAttemptSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('three different questions with three different answers', () => {
    const set = (...rows: [string, string][]) => rows.map(([questionId, answer]) => ({ questionId, answer }));
    const issues = (value: unknown) =>
      (SecurityQuestionsSchema.safeParse(value).error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);
    expect(
      issues(set(['first-car', 'Blue Honda'], ['first-school', 'Lincoln'], ['childhood-nickname', 'Bee'])),
    ).toEqual([]);
    expect(issues(set(['first-car', 'ab'], ['first-school', 'ab'], ['childhood-nickname', 'ab']))).toEqual([
      '0.answer:Security_Answer_Invalid',
      '1.answer:Security_Answer_Invalid',
      '2.answer:Security_Answer_Invalid',
    ]);
    expect(issues(set(['first-car', 'blue'], ['first-school', 'Blue '], ['childhood-nickname', 'BLUE']))).toEqual([
      '1.answer:Security_Answers_Not_Distinct',
      '2.answer:Security_Answers_Not_Distinct',
    ]);
    expect(issues(set(['first-car', 'one'], ['first-car', 'two'], ['childhood-nickname', 'three']))).toEqual([
      ':Security_Questions_Not_Distinct',
    ]);
    expect(issues(set(['first-car', 'one'], ['first-school', 'two']))).toEqual([':Security_Questions_Not_Distinct']);
    expect(issues(set(['First Car', 'one'], ['first-school', 'two'], ['x', 'three']))).toEqual([
      '0.questionId:Security_Question_Invalid',
    ]);
  });
});
