import type { ErrorCode } from '@portal/contracts/errors';
import { decryptSecret } from '../../platform/encryption';
import { PortalError } from '../../platform/portal-error';
import type { ServiceContext } from '../service-context';
import type { LoadedSession } from '../sessions/store';
import { verifyTotp } from './totp';

/**
 * Checks a code against the authenticator secret this session was offered (first enrolment or an MFA reset), which
 * no code has used yet. Answers the code's time step (null when wrong) and the time it was checked at; without an
 * offered secret it refuses with `notStarted`.
 */
export async function verifyPendingTotp(
  ctx: Pick<ServiceContext, 'secrets' | 'now'>,
  session: LoadedSession,
  code: string,
  notStarted: ErrorCode,
): Promise<{ step: number | null; now: Date; secretEncrypted: string }> {
  const secretEncrypted = session.pendingTotpSecretEncrypted;
  if (!secretEncrypted) throw new PortalError(400, notStarted);
  const now = ctx.now();
  const step = await verifyTotp(decryptSecret(ctx.secrets.encryptionKey, secretEncrypted), code, now, null);
  return { step, now, secretEncrypted };
}
