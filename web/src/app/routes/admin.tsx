import { ReauthProvider } from '../../components/reauth/reauth-provider';
import { AdminPage } from '../../features/admin/admin-page';
import { RequireLogin } from '../require-login';

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
