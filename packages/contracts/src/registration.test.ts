import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DobSchema, isIsoDateInRange, SelfRegistrationRequest, ValidateAuthorityRequest } from './registration';

const issuesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

describe('dates', () => {
  it('accepts every real day from 1900-01-01 to 2099-12-31 and nothing outside', () => {
    const min = Date.UTC(1900, 0, 1);
    const max = Date.UTC(2099, 11, 31);
    fc.assert(
      fc.property(fc.integer({ min: min - 400 * 86_400_000, max: max + 400 * 86_400_000 }), (ms) => {
        const day = new Date(ms).toISOString().slice(0, 10);
        expect(isIsoDateInRange(day)).toBe(ms >= min && ms <= max + 86_399_999);
      }),
    );
    for (const bad of ['2023-02-29', '2024-13-01', '1999-1-01', '19990101', ''])
      expect(isIsoDateInRange(bad), bad).toBe(false);
  });

  it('answers Date_Of_Birth_Invalid for a missing or wrong dob', () => {
    for (const dob of [undefined, null, 42, '', '1899-12-31', '2100-01-01'])
      expect(DobSchema.safeParse(dob).error?.issues[0]?.message).toBe('Date_Of_Birth_Invalid');
  });
});

describe('registration requests', () => {
  const valid = {
    registrationToken: 't'.repeat(43),
    firstName: 'Robin',
    lastName: 'Quill',
    email: 'robin@example.org',
    emailConfirmation: 'ROBIN@example.org',
    phone: '+1 (410) 555-0123',
    dob: '1975-06-15',
    username: 'robin.q',
    password: 'violet tugboat ember prairie',
    securityQuestions: [
      { questionId: 'first-car', answer: 'blue honda' },
      { questionId: 'first-school', answer: 'lincoln' },
      { questionId: 'childhood-nickname', answer: 'bee' },
    ],
  };

  it('normalises what people type', () => {
    const parsed = SelfRegistrationRequest.parse({ ...valid, firstName: '  Robin   Lee ' });
    expect(parsed).toMatchObject({ firstName: 'Robin Lee', phone: '4105550123' });
  });

  it('rejects unknown fields, repeated questions, a mismatched email and a password with the name', () => {
    expect(issuesOf(SelfRegistrationRequest.safeParse({ ...valid, role: 'administrator' }))).toHaveLength(1);
    expect(
      issuesOf(
        SelfRegistrationRequest.safeParse({
          ...valid,
          securityQuestions: [valid.securityQuestions[0], valid.securityQuestions[0], valid.securityQuestions[1]],
        }),
      ),
    ).toEqual(['securityQuestions:Security_Questions_Not_Distinct']);
    expect(issuesOf(SelfRegistrationRequest.safeParse({ ...valid, emailConfirmation: 'x@example.org' }))).toEqual([
      'emailConfirmation:Email_Mismatch',
    ]);
    expect(issuesOf(SelfRegistrationRequest.safeParse({ ...valid, password: 'quill quill quill quill' }))).toEqual([
      'password:Password_Contains_Personal_Info',
    ]);
  });

  it('reports the checks across fields together with every field problem (one submit, one round)', () => {
    const issues = issuesOf(
      SelfRegistrationRequest.safeParse({
        ...valid,
        phone: '12',
        dob: '',
        securityQuestions: [],
        emailConfirmation: 'x@example.org',
        password: 'quill quill quill quill',
      }),
    );
    expect(issues).toContain('phone:Phone_Invalid');
    expect(issues).toContain('dob:Date_Of_Birth_Invalid');
    expect(issues).toContain('emailConfirmation:Email_Mismatch');
    expect(issues).toContain('password:Password_Contains_Personal_Info');
    // A field of the wrong type never makes the checks across fields throw.
    expect(SelfRegistrationRequest.safeParse({ ...valid, email: 7, password: null }).success).toBe(false);
  });

  it('asks for the facts of the chosen proof only', () => {
    const base = { npi: '1234567893', validationToken: 'v'.repeat(40) };
    expect(
      ValidateAuthorityRequest.safeParse({ ...base, financialLookupSelector: 'claim', claimNumber: '1234567890123' })
        .success,
    ).toBe(true);
    expect(
      ValidateAuthorityRequest.safeParse({ ...base, financialLookupSelector: 'claim', checkNumber: 'EFT1234' }).success,
    ).toBe(false);
    expect(
      ValidateAuthorityRequest.safeParse({ ...base, financialLookupSelector: 'patient', patientMbi: '1EG4-TE5-MK73' })
        .success,
    ).toBe(false);
    expect(
      ValidateAuthorityRequest.safeParse({
        ...base,
        financialLookupSelector: 'patient',
        patientMbi: '1eg4-te5-mk73',
        dateOfService: '2026-10-01',
      }).data,
    ).toMatchObject({ patientMbi: '1EG4TE5MK73' });
  });
});
