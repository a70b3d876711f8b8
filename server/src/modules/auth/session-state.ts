import type { SessionState } from '@portal/contracts/auth';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { administersAnyLocationSql, type UserRef } from '../../platform/admin-guard';
import type { ServiceContext } from '../../platform/service-context';
import { sessionState, type LoadedSession } from '../../platform/session';
import { overdueRecertificationsSql } from '../recertification/service';

/** What the session answer tells the web app about the user's staff role. */
export interface StaffFlags {
  administersLocation: boolean;
  recertificationOverdue: boolean;
}

/**
 * The staff flags as SQL over a user id column, for `lookupSession`'s extras: `GET /api/session` reads them in the
 * session lookup's own statement, so the hot call stays one round trip (docs/decisions/0020).
 */
export function staffFlagColumns(ctx: Pick<ServiceContext, 'db' | 'now'>) {
  const now = ctx.now();
  return (userId: UserRef) => ({
    administersLocation: administersAnyLocationSql(ctx.db, userId, now),
    recertificationOverdue: overdueRecertificationsSql(ctx.db, userId, now),
  });
}

async function staffFlagsOf(ctx: Pick<ServiceContext, 'db' | 'now'>, userId: string): Promise<StaffFlags> {
  const [row] = await ctx.db.select(staffFlagColumns(ctx)(users.id)).from(users).where(eq(users.id, userId));
  return row ?? { administersLocation: false, recertificationOverdue: false };
}

/**
 * What `GET /api/session` (and the extend call) answers: the session's state and, when logged in, whether the user
 * administers a location (the web shows the `/admin` console's links then; the guard decides on each call anyway) and
 * whether such an administrator has overdue recertifications (the web app keeps them on the recertification screen,
 * docs/decisions/0041). `flags` read with the session (`staffFlagColumns`) save a query.
 */
export async function sessionAnswer(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config'>,
  session: LoadedSession | undefined,
  flags?: StaffFlags,
): Promise<SessionState> {
  const state = sessionState(session, ctx.now(), ctx.config.sessions);
  if (!state.loggedIn || !session) return state;
  const { administersLocation, recertificationOverdue } = flags ?? (await staffFlagsOf(ctx, session.userId));
  return { ...state, administersLocation, ...(administersLocation ? { recertificationOverdue } : {}) };
}
