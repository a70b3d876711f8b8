import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feedColumns, maskFeedValue, paidClaimsColumns, providerEnrollmentColumns } from './data-feeds';
import { isValidMbi, isValidNpi, npiCheckDigit } from './identifiers';

const column = (name: string, columns = providerEnrollmentColumns) => columns.find((c) => c.name === name)!;

describe('data-feed column rules (docs/requirements/data-feeds.md)', () => {
  it('NPI: accepted exactly when the identifier rule accepts it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{10}$/), (npi) => {
        expect(column('NPI').check(npi).ok).toBe(isValidNpi(npi));
      }),
    );
    const valid = `123456789${npiCheckDigit('123456789')}`;
    expect(column('NPI').check(valid)).toEqual({ ok: true, value: valid });
    expect(column('NPI').check('1234567890')).toEqual({ ok: false, code: 'Invalid_NPI' });
  });

  it('TIN and PTAN normalise as the forms do; MBI follows the CMS pattern', () => {
    expect(column('TIN').check('12-3456789')).toEqual({ ok: true, value: '123456789' });
    expect(column('TIN').check('000000000')).toEqual({ ok: false, code: 'Invalid_TIN' });
    expect(column('PTAN').check('bwi0000063')).toEqual({ ok: true, value: 'BWI0000063' });
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Z]{11}$/), (mbi) => {
        expect(column('PATIENT_MBI', paidClaimsColumns).check(mbi).ok).toBe(isValidMbi(mbi));
      }),
    );
  });

  it('dates are real ISO calendar days from 1900 to 2099', () => {
    const date = column('EFFECTIVE_DATE');
    expect(date.check('2026-02-28').ok).toBe(true);
    for (const bad of ['2026-02-30', '1899-12-31', '2100-01-01', '02/28/2026', '2026-2-28'])
      expect(date.check(bad)).toEqual({ ok: false, code: 'Invalid_Date' });
  });

  it('masks MBIs and TINs to their last four characters, and marks exactly those columns masked', () => {
    expect(maskFeedValue('123456789')).toBe('*****6789');
    expect(maskFeedValue('1EG4TE5MK73')).toBe('*******MK73');
    const masked = Object.values(feedColumns)
      .flat()
      .filter((c) => c.masked)
      .map((c) => c.name);
    expect(masked).toEqual(['TIN', 'PATIENT_MBI']);
  });
});
