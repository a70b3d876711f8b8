import { ReauthProvider } from '../../components/reauth/reauth-provider';
import { RecertifyPage } from '../../features/admin/recertification/recertify-page';
import { RequireLogin } from '../require-login';

/** The forced recertification screen: logged-in users only; its submit asks for the password when the login is old. */
export function RecertifyRoute() {
  return (
    <RequireLogin>
      <ReauthProvider>
        <RecertifyPage />
      </ReauthProvider>
    </RequireLogin>
  );
}
