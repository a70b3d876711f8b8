import { DdeAccessPage, ddeRequestForm } from '../../features/dde-access/dde-access-page';
import { RequireLogin } from '../require-login';

/** The parts of the page that hydrate on their own (app/router.tsx `pageWithParts`). */
export const ddeAccessParts = [ddeRequestForm];

export function DdeAccessRoute() {
  return (
    <RequireLogin>
      <DdeAccessPage />
    </RequireLogin>
  );
}
