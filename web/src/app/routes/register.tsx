import { RegisterPage } from '../../features/registration/register-page';

export function RegisterRoute() {
  return <RegisterPage />;
}
