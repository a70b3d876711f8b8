import { and, eq, gt, sql, type SQL } from 'drizzle-orm';
import { userLocations } from './schema';

/**
 * When a person's link to a provider location grants anything (docs/requirements/staff-accounts.md#annual-recertification,
 * docs/decisions/0044-link-in-force.md): the ONE condition every reader of `user_locations` that grants access uses —
 * the admin guard, DDE access, My account's locations, find-my-administrator, the current administrators the jobs
 * email. A link is in force while its status is `active` and its `certified_until` is still ahead by the app's clock,
 * so it stops granting at its date, not at the next run of the suspension job (which only does the bookkeeping: the
 * `suspended` status, the audit event and the email).
 *
 * `now` is the app's clock (`ctx.now()`); a caller that has none yet passes the database's (`sql\`now()\``).
 */
export function linkInForce(now: Date | SQL): SQL {
  return and(eq(userLocations.status, 'active'), gt(userLocations.certifiedUntil, now))!;
}

/** The same condition as a selectable boolean column (e.g. the administrators read under a location's lock). */
export function linkInForceColumn(now: Date) {
  return sql<boolean>`${linkInForce(now)}`.mapWith(Boolean);
}
