import { lazyPart } from '../../lib/lazy-part';

/** The registration wizard hydrates on its own (lib/lazy-part.tsx): its form code is evaluated apart from the page. */
const register = lazyPart(() => import('../../features/registration/register-page').then((m) => m.RegisterPage), {
  reserve: '70vh',
});
export const registerParts = [register];

export function RegisterRoute() {
  return <register.Part />;
}
