import { describe, expect, it } from 'vitest';
import {
  fromJurisdictionParts,
  isJurisdiction,
  JurisdictionListSchema,
  jurisdictionOptions,
  linesOfBusiness,
  macJurisdictions,
  providersLabel,
  selectableJurisdictions,
  statesOf,
  toJurisdictionParts,
} from './jurisdictions';
import jurisdictionData from './jurisdictions.json';

describe('jurisdiction options (docs/requirements/jurisdictions.md)', () => {
  it('holds the spec table exactly, placeholder first', () => {
    expect(jurisdictionOptions.map((o) => [o.value, o.title, o.color ?? null, o.providers.join(', ')])).toEqual([
      ['', 'Choose Jurisdiction', null, ''],
      ['J5A', 'J5 MAC Part A', '#FBBC1C', 'IA, KS, MO, NE'],
      ['J5B', 'J5 MAC Part B', '#25D0B1', 'IA, KS, MO, NE'],
      ['J8A', 'J8 MAC Part A', '#8B61BA', 'IN, MI'],
      ['J8B', 'J8 MAC Part B', '#FC8631', 'IN, MI'],
    ]);
  });
  it('names the spec image files', () => {
    expect(selectableJurisdictions.map((o) => o.svg)).toEqual([
      'jurisdiction_J5_A.svg',
      'jurisdiction_J5_B.svg',
      'jurisdiction_J8_A.svg',
      'jurisdiction_J8_B.svg',
    ]);
  });
  it('labels tiles as state codes followed by Providers', () => {
    expect(providersLabel(selectableJurisdictions[0]!)).toBe('IA, KS, MO, NE Providers');
    expect(providersLabel(selectableJurisdictions[3]!)).toBe('IN, MI Providers');
  });
  it('accepts only the four known values', () => {
    for (const v of ['J5A', 'J5B', 'J8A', 'J8B']) expect(isJurisdiction(v)).toBe(true);
    for (const v of ['', 'j5a', 'J5', 'J9A', 'J5A ', null, undefined, 5]) expect(isJurisdiction(v)).toBe(false);
  });
});

describe('the two encodings of a jurisdiction', () => {
  it('splits the combined value into the MAC jurisdiction and the line of business', () => {
    expect(toJurisdictionParts('J5A')).toEqual({ jurisdiction: 'J5', lineOfBusiness: 'A' });
    expect(toJurisdictionParts('J8B')).toEqual({ jurisdiction: 'J8', lineOfBusiness: 'B' });
  });
  it('joins the parts back, and every value survives the round trip', () => {
    expect(fromJurisdictionParts({ jurisdiction: 'J5', lineOfBusiness: 'B' })).toBe('J5B');
    for (const { value } of selectableJurisdictions)
      expect(fromJurisdictionParts(toJurisdictionParts(value))).toBe(value);
  });
  it('checks jurisdictions.json against its schema', () => {
    expect(JurisdictionListSchema.parse(jurisdictionData)).toEqual(selectableJurisdictions);
  });
  it('refuses a jurisdictions.json entry whose value does not match its parts', () => {
    const entry = {
      value: 'J5A',
      title: 'J5 MAC Part A',
      color: '#FBBC1C',
      svg: 'a.svg',
      providers: ['IA'],
      jurisdiction: 'J5',
      lineOfBusiness: 'A',
    };
    expect(JurisdictionListSchema.safeParse([entry]).success).toBe(true);
    expect(JurisdictionListSchema.safeParse([{ ...entry, value: 'J5B' }]).success).toBe(false);
    expect(JurisdictionListSchema.safeParse([{ ...entry, jurisdiction: 'J9' }]).success).toBe(false);
  });
  it('refuses values and pairs the portal does not serve', () => {
    expect(() => toJurisdictionParts('J9A' as never)).toThrow(RangeError);
    expect(() => fromJurisdictionParts({ jurisdiction: 'J5', lineOfBusiness: 'C' })).toThrow(RangeError);
    expect(() => fromJurisdictionParts({ jurisdiction: 'j5', lineOfBusiness: 'A' })).toThrow(RangeError);
  });
  it('lists the MAC jurisdictions, lines of business and states the database and demo data use', () => {
    expect(macJurisdictions).toEqual(['J5', 'J8']);
    expect(linesOfBusiness).toEqual(['A', 'B']);
    expect(statesOf('J5')).toEqual(['IA', 'KS', 'MO', 'NE']);
    expect(statesOf('J8')).toEqual(['IN', 'MI']);
  });
});
