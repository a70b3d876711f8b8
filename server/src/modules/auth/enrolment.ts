import type { MfaEnrollConfirm } from '@portal/contracts/auth';
import { eq } from 'drizzle-orm';
import { sessions } from '../../db/schema';
import { adoptTotpSecret } from '../../db/users';
import { encryptSecret } from '../../platform/encryption';
import { verifyPendingTotp } from '../../identity/mfa/pending-totp';
import { issueRecoveryCodes } from '../../identity/mfa/recovery-codes';
import { newTotpSecret } from '../../identity/mfa/totp';
import { PortalError } from '../../platform/portal-error';
import { audit, type ServiceContext } from '../../identity/service-context';
import { endAllSessions, type LoadedSession } from '../../identity/sessions/store';
import { finishLogin, recordSecondFactorFailure } from './second-factor';

/**
 * The first authenticator enrolment, at the login of an account without one (docs/requirements/session.md#mfa): a
 * new secret offered on the pending session, then a code from it makes it the account's.
 */

/** Enrolment, step 1: a new secret, kept (encrypted) on the pending session until a code confirms it. */
export async function startEnrolment(ctx: ServiceContext, session: LoadedSession): Promise<string> {
  const secret = newTotpSecret();
  await ctx.db
    .update(sessions)
    .set({ pendingTotpSecretEncrypted: encryptSecret(ctx.secrets.encryptionKey, secret) })
    .where(eq(sessions.idHash, session.idHash));
  await audit(ctx, ctx.db, {
    actor: session.userId,
    action: 'mfa.enrol_started',
    target: session.userId,
    outcome: 'success',
    details: { method: 'totp' },
  });
  return secret;
}

/**
 * Enrolment, step 2: a code from the new secret confirms it; the secret becomes the user's, 10 recovery codes are
 * issued, every other session of the user ends (an MFA change) and this one becomes a logged-in session.
 */
export async function confirmEnrolment(
  ctx: ServiceContext,
  session: LoadedSession,
  code: string,
): Promise<MfaEnrollConfirm> {
  const { step, now, secretEncrypted } = await verifyPendingTotp(ctx, session, code, 'Mfa_Enroll_Not_Started');
  if (step === null) {
    await recordSecondFactorFailure(ctx, session, 'totp');
    // The first setup: the user has no recovery codes yet, so the message does not mention them.
    throw new PortalError(401, 'Mfa_Setup_Code_Invalid');
  }
  return ctx.db.transaction(async (tx) => {
    await adoptTotpSecret(tx, session.userId, { secretEncrypted, step, now });
    const recoveryCodes = await issueRecoveryCodes(tx, ctx.secrets.encryptionKey, session.userId);
    const ended = await endAllSessions(tx, session.userId, { exceptIdHash: session.idHash });
    const completion = await finishLogin(ctx, tx, session, now);
    await audit(ctx, tx, {
      actor: session.userId,
      action: 'mfa.enrolled',
      target: session.userId,
      outcome: 'success',
      details: { method: 'totp', field: 'mfa', sessionCount: ended },
    });
    return { recoveryCodes, ...completion };
  });
}
