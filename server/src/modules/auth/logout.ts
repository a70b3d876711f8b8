import { audit, type ServiceContext } from '../../identity/service-context';
import { destroySession, type LoadedSession } from '../../identity/sessions/store';

/** `POST /api/auth/logout` with a valid session: it ends, audited (docs/requirements/session.md#logout). */
export async function logout(ctx: ServiceContext, session: LoadedSession): Promise<void> {
  await destroySession(ctx.db, session.idHash);
  await audit(ctx, ctx.db, { actor: session.userId, action: 'logout', target: session.userId, outcome: 'success' });
}
