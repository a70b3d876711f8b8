import { useLocation } from 'react-router';
import { JurisdictionPickerDialog } from '../jurisdiction/jurisdiction-picker-dialog';
import { useRegion } from '../jurisdiction/region-context';
import { LicenseDialog } from '../license/license-dialog';
import { useSession } from '../session/session-context';

/** Spec §2: no dialog at all for a user agent containing 'veracode' (a security scanner). */
export function dialogsAllowedFor(userAgent: string): boolean {
  return !/veracode/i.test(userAgent);
}

/**
 * Spec §4 dialog flow, on every page but `/` and while the session is active:
 * no jurisdiction or picker open → picker; jurisdiction chosen, picker closed, license not accepted → license.
 */
export function GlobalDialogs() {
  const { pathname } = useLocation();
  const { jurisdiction, pickerOpen, licenseAccepted } = useRegion();
  const { activityStatus } = useSession();
  const allowed = pathname !== '/' && activityStatus === 'active' && dialogsAllowedFor(navigator.userAgent);
  const showPicker = allowed && (!jurisdiction || pickerOpen);
  const showLicense = allowed && !!jurisdiction && !pickerOpen && !licenseAccepted;
  return (
    <>
      {showPicker && <JurisdictionPickerDialog open />}
      {showLicense && <LicenseDialog open />}
    </>
  );
}
