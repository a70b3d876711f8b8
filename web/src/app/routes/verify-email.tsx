import { lazyPart } from '../../lib/lazy-part';

/** The page hydrates on its own (lib/lazy-part.tsx): its code, with the resend form's, is evaluated apart. */
const verifyEmail = lazyPart(
  () => import('../../features/registration/verify-email-page').then((m) => m.VerifyEmailPage),
  { reserve: '50vh' },
);
export const verifyEmailParts = [verifyEmail];

export function VerifyEmailRoute() {
  return <verifyEmail.Part />;
}
