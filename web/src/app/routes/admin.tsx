import { ReauthProvider } from '../../components/reauth/reauth-provider';
import { AdminPage, peopleSection } from '../../features/admin/admin-page';
import { RequireLogin } from '../require-login';

/** The parts of the console that hydrate on their own (app/router.tsx `pageWithParts`). */
export const adminParts = [peopleSection];

/** The administrator's console: logged-in users only; its changes share one re-authentication dialog. */
export function AdminRoute() {
  return (
    <RequireLogin>
      <ReauthProvider>
        <AdminPage />
      </ReauthProvider>
    </RequireLogin>
  );
}
