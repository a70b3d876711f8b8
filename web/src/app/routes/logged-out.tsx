import { LoggedOutPage } from '../../features/auth/logged-out-page';

export function LoggedOutRoute() {
  return <LoggedOutPage />;
}
