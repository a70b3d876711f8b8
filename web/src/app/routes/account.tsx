import { ReauthProvider } from '../../components/reauth/reauth-provider';
import { AccountPage } from '../../features/account/account-page';
import { RequireLogin } from '../require-login';

/** My account: logged-in users only; its changes share one re-authentication dialog. */
export function AccountRoute() {
  return (
    <RequireLogin>
      <ReauthProvider>
        <AccountPage />
      </ReauthProvider>
    </RequireLogin>
  );
}
