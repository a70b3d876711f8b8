import { userById } from '../../db/users';
import { setSessionPassword } from '../../identity/passwords/change';
import { PortalError } from '../../platform/portal-error';
import type { ServiceContext } from '../../identity/service-context';
import type { LoadedSession } from '../../identity/sessions/store';

/**
 * `POST /api/auth/password-change`: the new password of a login whose password had expired (both factors given). The
 * same rules and effects as a change on My account: other sessions end, this one becomes logged in, a notice email
 * (docs/requirements/session.md#password-maximum-age).
 */
export async function completePasswordChange(
  ctx: ServiceContext,
  session: LoadedSession,
  newPassword: string,
): Promise<void> {
  const user = await userById(ctx.db, session.userId);
  if (!user) throw new PortalError(401, 'Mfa_Not_Pending');
  await setSessionPassword(ctx, session, user, newPassword, { reason: 'password_expired' });
}
