import { z } from 'zod/mini';

/**
 * Identifier rules (docs/requirements/portal.md#identifiers). Each schema trims and normalises what people type (spaces, dashes,
 * lower case) and carries a message that tells them what to enter.
 */

/** Luhn check over a digit string (the last digit is the check digit). */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The NPI's check digit: Luhn over the card-issuer prefix 80840 followed by the first nine digits. */
export function npiCheckDigit(firstNine: string): number {
  if (!/^\d{9}$/.test(firstNine)) throw new Error('An NPI check digit needs exactly nine digits');
  for (let d = 0; d <= 9; d++) if (luhnValid(`80840${firstNine}${d}`)) return d;
  throw new Error('unreachable: a Luhn check digit always exists');
}

export function isValidNpi(value: string): boolean {
  return /^\d{10}$/.test(value) && luhnValid(`80840${value}`);
}

const stripSeparators = (value: string) => value.replace(/[\s-]/g, '');

/** Takes what people type, strips the separators (and upper-cases), then checks the result. */
function typedIdentifier(
  normalise: (value: string) => string,
  ...checks: Parameters<ReturnType<typeof z.string>['check']>
) {
  return z.pipe(z.pipe(z.string(), z.transform(normalise)), z.string().check(...checks));
}
const upperCaseWithoutSeparators = (value: string) => stripSeparators(value).toUpperCase();

export const NpiSchema = typedIdentifier(
  stripSeparators,
  z.regex(/^\d{10}$/, 'Enter the 10-digit National Provider Identifier (NPI).'),
  z.refine(isValidNpi, 'This NPI is not valid. Check the 10 digits and try again.'),
);

/** TIN/EIN: nine digits, typed with or without the dash (12-3456789). */
export const TinSchema = typedIdentifier(
  stripSeparators,
  z.regex(/^\d{9}$/, 'Enter the 9-digit Tax Identification Number (TIN), for example 12-3456789.'),
  z.refine((v: string) => v !== '000000000', 'This TIN is not valid. Check the 9 digits and try again.'),
);

/**
 * The one TIN mask (docs/decisions/0031-field-rules.md): only the last four digits ever leave the server, as
 * `*****6789`, whatever page shows it (registration's location summary, My account's locations).
 */
export function maskTin(tin: string): string {
  return `*****${tin.slice(-4)}`;
}

/** PTAN: 6 to 10 letters or digits. */
export const PtanSchema = typedIdentifier(
  upperCaseWithoutSeparators,
  z.regex(/^[A-Z0-9]{6,10}$/, 'Enter the Provider Transaction Access Number (PTAN): 6 to 10 letters or numbers.'),
);

/**
 * Medicare Beneficiary Identifier: 11 characters in the CMS pattern
 * (C A AN N A AN N A A N N; letters exclude S, L, O, I, B and Z).
 */
const MBI_LETTER = '[AC-HJKMNP-RT-Y]';
const MBI_ALNUM = '[AC-HJKMNP-RT-Y0-9]';
export const MBI_PATTERN = new RegExp(
  `^[1-9]${MBI_LETTER}${MBI_ALNUM}\\d${MBI_LETTER}${MBI_ALNUM}\\d${MBI_LETTER}${MBI_LETTER}\\d\\d$`,
);
export function isValidMbi(value: string): boolean {
  return MBI_PATTERN.test(value);
}
export const MbiSchema = typedIdentifier(
  upperCaseWithoutSeparators,
  z.refine(
    isValidMbi,
    "Enter the patient's 11-character Medicare Beneficiary Identifier (MBI), for example 1EG4-TE5-MK73.",
  ),
);

/** Claim number: Part B ICN is 13 digits, Part A DCN up to 23 characters, so 13 to 23 letters or digits (docs/requirements/portal.md#identifiers). */
export const ClaimNumberSchema = typedIdentifier(
  upperCaseWithoutSeparators,
  z.regex(/^[A-Z0-9]{13,23}$/, 'Enter the claim number (ICN or DCN): 13 to 23 letters or numbers.'),
);
