import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ClaimNumberSchema,
  isValidMbi,
  isValidNpi,
  luhnValid,
  MbiSchema,
  NpiSchema,
  npiCheckDigit,
  PtanSchema,
  TinSchema,
} from './identifiers';

const digits = (n: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((a) => a.join(''));
const validNpi = digits(9).map((nine) => `${nine}${npiCheckDigit(nine)}`);

describe('NPI', () => {
  it('accepts published example NPIs and rejects a changed check digit', () => {
    // CMS's own NPI check-digit example: 123456789 → check digit 3.
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1234567890')).toBe(false);
    expect(NpiSchema.safeParse('1234567893').success).toBe(true);
  });

  it('every generated NPI passes, and changing any one digit makes it fail', () => {
    fc.assert(
      fc.property(validNpi, fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 9 }), (npi, pos, delta) => {
        expect(isValidNpi(npi)).toBe(true);
        const changed = npi.slice(0, pos) + ((Number(npi[pos]) + delta) % 10) + npi.slice(pos + 1);
        expect(isValidNpi(changed)).toBe(false);
      }),
    );
  });

  it('swapping two adjacent different digits is caught', () => {
    fc.assert(
      fc.property(validNpi, fc.integer({ min: 0, max: 8 }), (npi, pos) => {
        fc.pre(npi[pos] !== npi[pos + 1]);
        // Luhn misses only the 0↔9 swap.
        fc.pre(!((npi[pos] === '0' && npi[pos + 1] === '9') || (npi[pos] === '9' && npi[pos + 1] === '0')));
        const swapped = npi.slice(0, pos) + npi[pos + 1] + npi[pos] + npi.slice(pos + 2);
        expect(isValidNpi(swapped)).toBe(false);
      }),
    );
  });

  it('normalises spaces and dashes, and explains what is wrong', () => {
    expect(NpiSchema.parse(' 123-456-7893 ')).toBe('1234567893');
    const short = NpiSchema.safeParse('12345');
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.message).toBe('Enter the 10-digit National Provider Identifier (NPI).');
    expect(NpiSchema.safeParse('1234567890').error?.issues[0]?.message).toMatch(/not valid/);
  });

  it('luhnValid rejects anything but digits', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => /\D/.test(s) || s === ''),
        (s) => {
          expect(luhnValid(s)).toBe(false);
        },
      ),
    );
  });
});

describe('TIN', () => {
  it('accepts nine digits with or without the dash', () => {
    fc.assert(
      fc.property(
        digits(9).filter((d) => d !== '000000000'),
        (d) => {
          expect(TinSchema.parse(d)).toBe(d);
          expect(TinSchema.parse(`${d.slice(0, 2)}-${d.slice(2)}`)).toBe(d);
        },
      ),
    );
  });
  it('rejects other lengths and all zeros', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 20 })
          .filter((n) => n !== 9)
          .chain(digits),
        (d) => {
          expect(TinSchema.safeParse(d).success).toBe(false);
        },
      ),
    );
    expect(TinSchema.safeParse('000000000').success).toBe(false);
  });
});

describe('PTAN', () => {
  it('accepts 6 to 10 letters or digits, upper-cased', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z0-9]{6,10}$/), (p) => {
        expect(PtanSchema.parse(p)).toBe(p.toUpperCase());
      }),
    );
  });
  it('rejects shorter, longer or punctuated values', () => {
    for (const bad of ['12345', '12345678901', 'AB$123', '']) expect(PtanSchema.safeParse(bad).success).toBe(false);
  });
});

describe('MBI', () => {
  const letter = fc.constantFrom(...'ACDEFGHJKMNPQRTUVWXY');
  const alnum = fc.constantFrom(...'ACDEFGHJKMNPQRTUVWXY0123456789');
  const digit = fc.constantFrom(...'0123456789');
  const mbi = fc
    .tuple(fc.constantFrom(...'123456789'), letter, alnum, digit, letter, alnum, digit, letter, letter, digit, digit)
    .map((parts) => parts.join(''));

  it('accepts the CMS example and every value built from the pattern', () => {
    expect(MbiSchema.parse('1EG4-TE5-MK73')).toBe('1EG4TE5MK73');
    fc.assert(
      fc.property(mbi, (m) => {
        expect(isValidMbi(m)).toBe(true);
      }),
    );
  });
  it('rejects the excluded letters S, L, O, I, B, Z in letter positions', () => {
    fc.assert(
      fc.property(mbi, fc.constantFrom(...'SLOIBZ'), fc.constantFrom(1, 4, 7, 8), (m, bad, pos) => {
        expect(isValidMbi(m.slice(0, pos) + bad + m.slice(pos + 1))).toBe(false);
      }),
    );
  });
  it('rejects a leading zero', () => {
    fc.assert(
      fc.property(mbi, (m) => {
        expect(isValidMbi(`0${m.slice(1)}`)).toBe(false);
      }),
    );
  });
});

describe('claim number', () => {
  it('accepts 13 to 23 letters or digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z0-9]{13,23}$/), (c) => {
        expect(ClaimNumberSchema.parse(c)).toBe(c);
      }),
    );
  });
  it('rejects 12 or 24 characters', () => {
    expect(ClaimNumberSchema.safeParse('123456789012').success).toBe(false);
    expect(ClaimNumberSchema.safeParse('1'.repeat(24)).success).toBe(false);
  });
});
