import type { Account } from '@portal/contracts/account';
import { maskPhone } from '@portal/contracts/fields';
import { maskTin } from '@portal/contracts/identifiers';
import { and, count, eq, isNull } from 'drizzle-orm';
import { linkInForce } from '../../db/links';
import { mfaRecoveryCodes, passkeys, providerLocations, securityAnswers, userLocations } from '../../db/schema';
import { userById } from '../../db/users';
import { PortalError } from '../../platform/portal-error';
import type { ServiceContext } from '../../identity/service-context';
import { recentAuthenticationSecondsLeft } from '../../identity/sessions/guards';
import { type LoadedSession } from '../../identity/sessions/store';

/**
 * `GET /api/account`: the My account summary (docs/requirements/session.md#my-account): name, contact details,
 * second factors, provider locations, the security questions chosen and how long the recent login still counts.
 */
export async function accountProfile(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config'>,
  session: LoadedSession,
): Promise<Account> {
  const { db } = ctx;
  const user = await userById(db, session.userId);
  if (!user) throw new PortalError(401, 'Not_Logged_In');
  const [locations, [codes], [keys], questions] = await Promise.all([
    db
      .select({
        legalName: providerLocations.legalName,
        jurisdiction: providerLocations.jurisdiction,
        lineOfBusiness: providerLocations.lineOfBusiness,
        tin: providerLocations.tin,
        role: userLocations.role,
      })
      .from(userLocations)
      .innerJoin(providerLocations, eq(providerLocations.id, userLocations.locationId))
      // The locations the person has now: a link past its date or suspended grants nothing (db/links.ts).
      .where(and(eq(userLocations.userId, user.id), linkInForce(ctx.now())))
      .orderBy(providerLocations.legalName),
    db
      .select({ n: count() })
      .from(mfaRecoveryCodes)
      .where(and(eq(mfaRecoveryCodes.userId, user.id), isNull(mfaRecoveryCodes.usedAt))),
    db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id)),
    // The questions' keys only: an answer (even its hash) never leaves the server.
    db
      .select({ questionId: securityAnswers.questionId })
      .from(securityAnswers)
      .where(eq(securityAnswers.userId, user.id))
      .orderBy(securityAnswers.questionId),
  ]);
  return {
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneMasked: maskPhone(user.phone),
    status: user.status,
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    passwordChangedAt: user.passwordChangedAt.toISOString(),
    mfa: {
      authenticatorEnrolledAt: user.mfaEnrolledAt?.toISOString() ?? null,
      passkeyCount: keys?.n ?? 0,
      recoveryCodesLeft: codes?.n ?? 0,
    },
    locations: locations.map(({ tin, ...location }) => ({ ...location, tinMasked: maskTin(tin) })),
    securityQuestionIds: questions.map((q) => q.questionId),
    recentAuthenticationSecondsLeft: recentAuthenticationSecondsLeft(
      session,
      ctx.now(),
      ctx.config.login.reauthenticationWindowMs,
    ),
  };
}
