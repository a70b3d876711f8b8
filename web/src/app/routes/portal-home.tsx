import { requestAccessForm } from '../../features/portal-home/components/access-requests-section';
import { PortalHomePage } from '../../features/portal-home/portal-home-page';
import { RequireLogin } from '../require-login';

/** The parts of the portal home that hydrate on their own (app/router.tsx `pageWithParts`). */
export const portalHomeParts = [requestAccessForm];

/** The portal home: logged-in users only (a visitor goes to `/login?next=/portal`). */
export function PortalHomeRoute() {
  return (
    <RequireLogin>
      <PortalHomePage />
    </RequireLogin>
  );
}
