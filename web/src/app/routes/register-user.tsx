import { lazyPart } from '../../lib/lazy-part';

/**
 * The end user's registration hydrates on its own (lib/lazy-part.tsx), as the administrator's does: its form code
 * (the steps, the date field, validation) is evaluated apart from the page (issue 39: initial JS ≤ 170 KB).
 */
const registerUser = lazyPart(
  () => import('../../features/registration/register-user-page').then((m) => m.RegisterUserPage),
  { reserve: '70vh' },
);
export const registerUserParts = [registerUser];

export function RegisterUserRoute() {
  return <registerUser.Part />;
}
