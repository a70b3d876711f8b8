import { PortalHomePage } from '../../features/portal-home/portal-home-page';
import { RequireLogin } from '../require-login';

/** The portal home: logged-in users only (a visitor goes to `/login?next=/portal`). */
export function PortalHomeRoute() {
  return (
    <RequireLogin>
      <PortalHomePage />
    </RequireLogin>
  );
}
