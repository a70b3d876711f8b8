import { ReauthProvider } from '../../components/reauth/reauth-provider';
import { AccountPage, accountPageParts } from '../../features/account/account-page';
import { RequireLogin } from '../require-login';

export const accountParts = accountPageParts;

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
