import { RegisterUserPage } from '../../features/registration/register-user-page';

export function RegisterUserRoute() {
  return <RegisterUserPage />;
}
