import type { MfaEnrollStart } from '@portal/contracts/auth';
import { maskPhone } from '@portal/contracts/fields';
import { eq } from 'drizzle-orm';
import { passkeys, sessions, users } from '../../db/schema';
import { adoptTotpSecret, userById } from '../../db/users';
import type { DbExecutor } from '../../platform/db-executor';
import type { AuditDetails } from '../../platform/audit';
import { encryptSecret } from '../../platform/encryption';
import { enqueueEmail } from './emails';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { verifyPendingTotp } from '../../identity/mfa/pending-totp';
import { issueRecoveryCodes } from '../../identity/mfa/recovery-codes';
import { groupedKey, newTotpSecret, otpauthUrl, qrSvg } from '../../identity/mfa/totp';
import { setSessionPassword } from '../../identity/passwords/change';
import { PortalError } from '../../platform/portal-error';
import { saveSecurityAnswers } from '../../identity/security-answers';
import { requireListedSecurityQuestions } from '../../identity/security-questions';
import { audit, type ServiceContext } from '../../identity/service-context';
import { endAllSessions, rotateSession, type LoadedSession } from '../../identity/sessions/store';
import { verifyAccountPassword } from '../auth/service';

/**
 * My account's credential changes (docs/requirements/session.md#my-account): the password, the authenticator app,
 * the security answers and the phone number. The email address has its own flow (`email-change.ts`). Each needs a
 * recent login, which the route checks.
 */

/**
 * `POST /api/account/password`: the current password (checked like a login), then the new one under the shared
 * policy and not one of the last passwords. Every other session of the user ends; this one stays with a new id.
 * Answers how many other sessions ended.
 */
export async function changePassword(
  ctx: ServiceContext,
  session: LoadedSession,
  input: { currentPassword: string; newPassword: string },
): Promise<number> {
  // Checked like a login: a wrong one counts toward the lockout (the auth module's service).
  const user = await verifyAccountPassword(ctx, session.userId, input.currentPassword, 'password.change');
  if (!user) throw new PortalError(400, 'Current_Password_Invalid', { currentPassword: ['Current_Password_Invalid'] });
  return setSessionPassword(ctx, session, user, input.newPassword);
}

/** `POST /api/account/mfa/reset` without a code: a new secret, kept (encrypted) on this session until confirmed. */
export async function startMfaReset(
  ctx: Pick<ServiceContext, 'db' | 'secrets' | 'client'>,
  session: LoadedSession,
): Promise<MfaEnrollStart> {
  const secret = newTotpSecret();
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(sessions)
      .set({ pendingTotpSecretEncrypted: encryptSecret(ctx.secrets.encryptionKey, secret) })
      .where(eq(sessions.idHash, session.idHash));
    await audit(ctx, tx, {
      actor: session.userId,
      target: session.userId,
      action: 'mfa.reset_started',
      outcome: 'success',
      details: { method: 'totp' },
    });
  });
  const url = otpauthUrl(secret, session.username);
  return { otpauthUrl: url, secret: groupedKey(secret), qrSvg: await qrSvg(url) };
}

/**
 * `POST /api/account/mfa/reset` with a code from the new secret: it replaces the old authenticator, 10 new recovery
 * codes replace the old ones, the passkeys are removed, every other session ends (with every outstanding emailed link
 * or code) and the user is emailed.
 */
export async function confirmMfaReset(
  ctx: ServiceContext,
  session: LoadedSession,
  code: string,
): Promise<{ recoveryCodes: string[]; otherSessionsEnded: number }> {
  const { step, now, secretEncrypted } = await verifyPendingTotp(ctx, session, code, 'Mfa_Reset_Not_Started');
  if (step === null) {
    await audit(ctx, ctx.db, {
      actor: session.userId,
      target: session.userId,
      action: 'mfa.reset',
      outcome: 'failure',
      details: { method: 'totp', reason: 'wrong_code' },
    });
    throw new PortalError(400, 'Mfa_Setup_Code_Invalid', { code: ['Mfa_Setup_Code_Invalid'] });
  }
  const result = await ctx.db.transaction(async (tx) => {
    // The same adoption as the first enrolment (auth): the confirming code's step cannot be replayed.
    const user = await adoptTotpSecret(tx, session.userId, { secretEncrypted, step, now });
    const recoveryCodes = await issueRecoveryCodes(tx, ctx.secrets.encryptionKey, session.userId);
    // Every second factor is replaced together: passkeys go with the old app and codes, so one planted by whoever
    // held the account does not survive the owner's recovery (docs/decisions/0030-passkeys-and-credential-changes.md).
    const passkeysRemoved = (
      await tx.delete(passkeys).where(eq(passkeys.userId, session.userId)).returning({ id: passkeys.id })
    ).length;
    const otherSessionsEnded = await endAllSessions(tx, session.userId, { exceptIdHash: session.idHash });
    // A new id for the changed privilege; the new row carries no pending secret.
    await rotateSession(ctx, tx, {
      userId: session.userId,
      stage: 'active',
      keep: session,
      authenticatedAt: session.authenticatedAt,
    });
    await enqueueEmail(tx, {
      to: user.email,
      template: 'mfa-changed',
      data: { firstName: user.firstName, passkeysRemoved },
    });
    await audit(ctx, tx, {
      actor: session.userId,
      target: session.userId,
      action: 'mfa.reset',
      outcome: 'success',
      details: { method: 'totp', field: 'mfa', sessionCount: otherSessionsEnded, count: passkeysRemoved },
    });
    return { recoveryCodes, otherSessionsEnded };
  });
  ctx.jobs.kick(OUTBOX_JOB);
  return result;
}

/**
 * The notice and audit event of a changed contact detail or security answers, in the transaction that changed it:
 * the `account-details-changed` email to the address on file, and `action` audited as the owner's success.
 */
async function noticeDetailsChanged(
  ctx: Pick<ServiceContext, 'client'>,
  tx: DbExecutor,
  userId: string,
  owner: { email: string; firstName: string },
  what: { change: 'phone' | 'security-answers'; action: string; details: AuditDetails },
): Promise<void> {
  await enqueueEmail(tx, {
    to: owner.email,
    template: 'account-details-changed',
    data: { firstName: owner.firstName, change: what.change },
  });
  await audit(ctx, tx, {
    actor: userId,
    target: userId,
    action: what.action,
    outcome: 'success',
    details: what.details,
  });
}

/**
 * `POST /api/account/phone`: the registration's phone rule (the contracts' schema gives the 10 digits). Answers the
 * new number masked.
 */
export async function changePhone(
  ctx: Pick<ServiceContext, 'db' | 'jobs' | 'client'>,
  session: LoadedSession,
  phone: string,
): Promise<string> {
  await ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ phone })
      .where(eq(users.id, session.userId))
      .returning({ email: users.email, firstName: users.firstName });
    if (!user) throw new PortalError(401, 'Not_Logged_In');
    await noticeDetailsChanged(ctx, tx, session.userId, user, {
      change: 'phone',
      action: 'phone.changed',
      details: { field: 'phone' },
    });
  });
  ctx.jobs.kick(OUTBOX_JOB);
  return maskPhone(phone)!;
}

/**
 * `POST /api/account/security-answers`: three different questions of the CMS's current list (503 when it cannot be
 * read) and their answers replace the old ones, hashed under each question's key as at registration.
 */
export async function changeSecurityAnswers(
  ctx: Pick<ServiceContext, 'db' | 'hasher' | 'jobs' | 'client' | 'securityQuestionKeys'>,
  session: LoadedSession,
  answers: readonly { questionId: string; answer: string }[],
): Promise<void> {
  await requireListedSecurityQuestions(ctx.securityQuestionKeys, answers);
  await ctx.db.transaction(async (tx) => {
    const user = await userById(tx, session.userId);
    if (!user) throw new PortalError(401, 'Not_Logged_In');
    await saveSecurityAnswers(tx, session.userId, answers, ctx.hasher);
    await noticeDetailsChanged(ctx, tx, session.userId, user, {
      change: 'security-answers',
      action: 'security_answers.changed',
      details: { field: 'security_answers', count: answers.length },
    });
  });
  ctx.jobs.kick(OUTBOX_JOB);
}

/**
 * `POST /api/account/recovery-codes` (docs/requirements/session.md#mfa): 10 new recovery codes replace the old ones,
 * for a person who used them up or did not save them. The authenticator app and passkeys stay; the route asks for a
 * recent login. The person is emailed, as for every change of a second factor.
 */
export async function renewRecoveryCodes(
  ctx: ServiceContext,
  session: LoadedSession,
): Promise<{ recoveryCodes: string[] }> {
  const recoveryCodes = await ctx.db.transaction(async (tx) => {
    const user = await userById(tx, session.userId);
    if (!user) throw new PortalError(401, 'Not_Logged_In');
    const codes = await issueRecoveryCodes(tx, ctx.secrets.encryptionKey, session.userId);
    await enqueueEmail(tx, { to: user.email, template: 'recovery-codes-renewed', data: { firstName: user.firstName } });
    await audit(ctx, tx, {
      actor: session.userId,
      target: session.userId,
      action: 'mfa.recovery_codes',
      outcome: 'success',
      details: { count: codes.length },
    });
    return codes;
  });
  ctx.jobs.kick(OUTBOX_JOB);
  return { recoveryCodes };
}
