import type { SessionState } from '@portal/contracts/auth';
import { eq, type SQL } from 'drizzle-orm';
import { users } from '../../db/schema';
import { administersAnyLocationSql, type UserRef } from '../../identity/admin-guard';
import type { DbExecutor } from '../../platform/db-executor';
import type { ServiceContext } from '../../identity/service-context';
import { sessionState, type LoadedSession, type SessionLookupShape } from '../../identity/sessions/store';
import { overdueRecertificationsSql } from '../recertification/service';

/** What the session answer tells the web app about the user's staff role. */
export interface StaffFlags {
  administersLocation: boolean;
  recertificationOverdue: boolean;
}

/** The staff flags as SQL over a user id column at `now` (the app's clock, or the prepared lookup's `NOW`). */
function staffFlagColumns(db: DbExecutor, userId: UserRef, now: Date | SQL) {
  return {
    administersLocation: administersAnyLocationSql(db, userId, now),
    recertificationOverdue: overdueRecertificationsSql(db, userId, now),
  };
}

/**
 * `GET /api/session`'s lookup: the staff flags read in the session lookup's own statement, so the hot call stays one
 * round trip of one prepared statement (docs/decisions/0020).
 */
export const SESSION_WITH_STAFF_FLAGS: SessionLookupShape<ReturnType<typeof staffFlagColumns>> = {
  name: 'session_lookup_staff_flags',
  extras: staffFlagColumns,
};

async function staffFlagsOf(ctx: Pick<ServiceContext, 'db' | 'now'>, userId: string): Promise<StaffFlags> {
  const [row] = await ctx.db
    .select(staffFlagColumns(ctx.db, users.id, ctx.now()))
    .from(users)
    .where(eq(users.id, userId));
  return row ?? { administersLocation: false, recertificationOverdue: false };
}

/**
 * What `GET /api/session` (and the extend call) answers: the session's state and, when logged in, whether the user
 * administers a location (the web shows the `/admin` console's links then; the guard decides on each call anyway) and
 * whether such an administrator has overdue recertifications (the web app keeps them on the recertification screen,
 * docs/decisions/0041). `flags` read with the session (`SESSION_WITH_STAFF_FLAGS`) save a query.
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
