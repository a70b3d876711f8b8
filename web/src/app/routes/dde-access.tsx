import { DdeAccessPage } from '../../features/dde-access/dde-access-page';
import { RequireLogin } from '../require-login';

export function DdeAccessRoute() {
  return (
    <RequireLogin>
      <DdeAccessPage />
    </RequireLogin>
  );
}
