import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Jurisdiction } from '@portal/contracts';
// The first load's modules import the contracts' zod-free parts (docs/requirements/platform.md#web-budget).
import { LICENSE_COOKIE, REGION_COOKIE } from '@portal/contracts/http-names';
import { isJurisdiction, selectableJurisdictions, type JurisdictionOption } from '@portal/contracts/jurisdiction-list';
import { siteConfig } from '../../config/site-config';
import { currentCookieContext, readCookie, removeCookie, writeCookie } from '../cookies';

export interface RegionContextValue {
  /** The chosen jurisdiction, or '' when none is chosen (docs/requirements/public-site.md#dialog-flow). */
  jurisdiction: Jurisdiction | '';
  option: (JurisdictionOption & { value: Jurisdiction }) | undefined;
  /** Sets the jurisdiction, writes the region cookie (365 days if remembered, else session) and closes the picker. */
  chooseJurisdiction: (value: Jurisdiction, remember: boolean) => void;
  pickerOpen: boolean;
  openPicker: () => void;
  closePicker: () => void;
  licenseAccepted: boolean;
  acceptLicense: () => void;
  clearLicense: () => void;
}

const RegionContext = createContext<RegionContextValue | null>(null);

/** At start the jurisdiction comes from the cookie only if it is a known value; a tampered cookie is ignored. */
export function jurisdictionFrom(stored: string | undefined): Jurisdiction | '' {
  return isJurisdiction(stored) ? stored : '';
}

/** The region and license cookies as the portal server read them from the request (the server has no document.cookie). */
export interface RegionCookies {
  region: string | undefined;
  license: string | undefined;
}

export function RegionProvider({ children, cookies }: { children: ReactNode; cookies?: RegionCookies }) {
  const [jurisdiction, setJurisdiction] = useState<Jurisdiction | ''>(() =>
    jurisdictionFrom(cookies ? cookies.region : readCookie(REGION_COOKIE)),
  );
  const [pickerOpen, setPickerOpen] = useState(false);
  const [licenseAccepted, setLicenseAccepted] = useState(
    () => (cookies ? cookies.license : readCookie(LICENSE_COOKIE)) === 'true',
  );
  // The license cookie follows the region cookie's remember rule (docs/requirements/public-site.md#cookies).
  const [remember, setRemember] = useState(false);

  const chooseJurisdiction = useCallback((value: Jurisdiction, rememberChoice: boolean) => {
    writeCookie(REGION_COOKIE, value, rememberChoice, currentCookieContext(siteConfig.cookieDomain));
    setRemember(rememberChoice);
    setJurisdiction(value);
    setPickerOpen(false);
  }, []);

  const acceptLicense = useCallback(() => {
    writeCookie(LICENSE_COOKIE, 'true', remember, currentCookieContext(siteConfig.cookieDomain));
    setLicenseAccepted(true);
  }, [remember]);

  const clearLicense = useCallback(() => {
    removeCookie(LICENSE_COOKIE, currentCookieContext(siteConfig.cookieDomain));
    setLicenseAccepted(false);
  }, []);

  const value = useMemo<RegionContextValue>(
    () => ({
      jurisdiction,
      option: selectableJurisdictions.find((o) => o.value === jurisdiction),
      chooseJurisdiction,
      pickerOpen,
      openPicker: () => setPickerOpen(true),
      closePicker: () => setPickerOpen(false),
      licenseAccepted,
      acceptLicense,
      clearLicense,
    }),
    [jurisdiction, chooseJurisdiction, pickerOpen, licenseAccepted, acceptLicense, clearLicense],
  );
  return <RegionContext.Provider value={value}>{children}</RegionContext.Provider>;
}

export function useRegion(): RegionContextValue {
  const value = useContext(RegionContext);
  if (!value) throw new Error('useRegion must be used inside <RegionProvider>');
  return value;
}
