import type { SessionState } from '@portal/contracts/auth';
import { administersAnyLocation } from '../../platform/admin-guard';
import { hasOverdueRecertifications } from '../recertification/service';
import type { ServiceContext } from '../../platform/service-context';
import { sessionState, type LoadedSession } from '../../platform/session';

/**
 * What `GET /api/session` (and the extend call) answers: the session's state and, when logged in, whether the user
 * administers a location (the web shows the `/admin` console's links then; the guard decides on each call anyway).
 */
export async function sessionAnswer(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config'>,
  session: LoadedSession | undefined,
): Promise<SessionState> {
  const state = sessionState(session, ctx.now(), ctx.config.sessions);
  if (!state.loggedIn || !session) return state;
  const administersLocation = await administersAnyLocation(ctx.db, session.userId);
  return {
    ...state,
    administersLocation,
    // The web app keeps such an administrator on the recertification screen (docs/decisions/0041).
    ...(administersLocation ? { recertificationOverdue: await hasOverdueRecertifications(ctx, session.userId) } : {}),
  };
}
