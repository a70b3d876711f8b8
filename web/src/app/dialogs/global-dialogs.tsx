import { lazy, Suspense } from 'react';
import { PREVIEW_PAGE_PREFIX } from '@portal/contracts/preview-links';
import { useLocation } from 'react-router';
import { isContentPage } from '../../config/paths';
import { useRegion } from '../../lib/region/region-context';
import { useRenderEnvironment } from '../../lib/render-environment';
import { useSession } from '../../lib/session/session-context';

// The dialogs' code loads only when one is due: never on `/`, where no dialog may open.
const JurisdictionPickerDialog = lazy(() =>
  import('../../features/jurisdiction/jurisdiction-picker-dialog').then((m) => ({
    default: m.JurisdictionPickerDialog,
  })),
);
const SessionPromptDialog = lazy(() =>
  import('../../features/inactivity/session-prompt-dialog').then((m) => ({ default: m.SessionPromptDialog })),
);
const SessionEndedDialog = lazy(() =>
  import('../../features/inactivity/session-ended-dialog').then((m) => ({ default: m.SessionEndedDialog })),
);
const LicenseDialog = lazy(() =>
  import('../../features/license/license-dialog').then((m) => ({ default: m.LicenseDialog })),
);

/** docs/requirements/public-site.md#global-dialogs: no dialog at all for a user agent containing 'veracode' (a security scanner). */
export function dialogsAllowedFor(userAgent: string): boolean {
  return !/veracode/i.test(userAgent);
}

/**
 * The inactivity dialogs while prompted or idle; otherwise the dialog flow
 * (docs/requirements/public-site.md#dialog-flow) while the session is active: on content pages, no jurisdiction or
 * picker open → picker; jurisdiction chosen, picker closed, license not accepted → license. On any other page but `/`
 * and the editors' preview pages (`/preview/…`, shown inside the CMS admin) only the picker the person opened with
 * the header's control.
 */
export function GlobalDialogs() {
  const { pathname } = useLocation();
  const { jurisdiction, pickerOpen, licenseAccepted } = useRegion();
  const { activityStatus } = useSession();
  const { userAgent } = useRenderEnvironment();
  const dialogsAllowed = dialogsAllowedFor(userAgent);
  // The inactivity dialogs (docs/requirements/session.md#inactivity-dialogs) show on every page, `/` included.
  if (dialogsAllowed && activityStatus === 'prompted')
    return (
      <Suspense fallback={null}>
        <SessionPromptDialog />
      </Suspense>
    );
  if (dialogsAllowed && activityStatus === 'idle')
    return (
      <Suspense fallback={null}>
        <SessionEndedDialog />
      </Suspense>
    );
  const allowed =
    pathname !== '/' && !pathname.startsWith(PREVIEW_PAGE_PREFIX) && activityStatus === 'active' && dialogsAllowed;
  const contentPage = allowed && isContentPage(pathname);
  const showPicker = allowed && (pickerOpen || (contentPage && !jurisdiction));
  const showLicense = contentPage && !!jurisdiction && !pickerOpen && !licenseAccepted;
  if (!showPicker && !showLicense) return null;
  return (
    <Suspense fallback={null}>
      {showPicker ? (
        <JurisdictionPickerDialog open mustChoose={contentPage && !jurisdiction} />
      ) : (
        <LicenseDialog open />
      )}
    </Suspense>
  );
}
