import { LoginPage } from '../../features/auth/login-page';

export { loadPasswordStep } from '../../features/auth/login-page';

export function LoginRoute() {
  return <LoginPage />;
}
