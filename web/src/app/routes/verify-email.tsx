import { VerifyEmailPage } from '../../features/registration/verify-email-page';

export function VerifyEmailRoute() {
  return <VerifyEmailPage />;
}
