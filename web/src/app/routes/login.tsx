import { LoginPage, passwordStep } from '../../features/auth/login-page';

/** The page's parts that hydrate on their own: the username and password form. */
export const loginParts = [passwordStep];

export function LoginRoute() {
  return <LoginPage />;
}
