import { describe, expect, it } from 'vitest';
import { isJurisdiction, jurisdictionOptions, providersLabel, selectableJurisdictions } from './jurisdictions';

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
