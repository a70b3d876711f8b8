import type { UserRegistrationRequest } from '@portal/contracts/access-requests';
import type { z } from 'zod/mini';
import { accessRequests } from '../../db/schema';
import { usersByEmail } from '../../db/users';
import { findLocationsLimited } from '../../identity/locations/lookup';
import { OUTBOX_JOB } from '../../platform/mail/outbox';
import { PortalError } from '../../platform/portal-error';
import { audit } from '../../identity/service-context';
import { checkInvitation, redeemInvitation, type RedeemedInvitation } from '../invitations/service';
import {
  checkAccountFields,
  hashAccountSecrets,
  insertPendingAccount,
  refusal,
  registrationFailure,
  type Ctx,
} from './account-creation';

/**
 * The end user's registration (docs/requirements/staff-accounts.md#end-users): the same account as an administrator's
 * (pending until the emailed link is opened), and one `pending` access request per location named by NPI + PTAN +
 * TIN. No financial facts: a location's administrator approving the request is the proof.
 */

type UserRegistrationInput = z.output<typeof UserRegistrationRequest>;

export const USER_REGISTRATION_ACTION = 'registration.user';

export async function registerEndUser(ctx: Ctx, input: UserRegistrationInput): Promise<void> {
  await checkAccountFields(ctx, input, USER_REGISTRATION_ACTION);

  const found = input.locations.length ? await findLocationsLimited(ctx, input.locations) : [];
  const missing = found.flatMap((location, i) => (location ? [] : [i]));
  if (missing.length) {
    await refusal(ctx, input.username, 'no_match', USER_REGISTRATION_ACTION);
    // One code whichever identifier was wrong, next to each location that matched nothing.
    throw new PortalError(
      400,
      'Provider_Not_Found',
      Object.fromEntries(missing.map((i) => [`locations.${i}`, ['Provider_Not_Found']])),
    );
  }
  // The same location named twice is one request.
  const locationIds = [...new Set(found.map((location) => location!.id))];

  const hashes = await hashAccountSecrets(ctx, input);
  let userId: string;
  try {
    userId = await ctx.db.transaction(async (tx) => {
      // An address that already has an account gets a notice instead of a verification link, and this pending
      // account expires: the invitation stays for that account to accept after logging in.
      const [existing] = input.invitationToken ? await usersByEmail(tx, input.email).limit(1) : [];
      const id = await insertPendingAccount(ctx, tx, input, hashes, 'user');
      // Invited (docs/requirements/staff-accounts.md#invitations): the location is linked at once, no request.
      let invited: RedeemedInvitation | undefined;
      if (input.invitationToken && existing) await checkInvitation(ctx, tx, input.invitationToken, input.email);
      else if (input.invitationToken)
        invited = await redeemInvitation(ctx, tx, input.invitationToken, { id, email: input.email });
      const requested = locationIds.filter((locationId) => locationId !== invited?.locationId);
      if (requested.length)
        await tx.insert(accessRequests).values(requested.map((locationId) => ({ userId: id, locationId })));
      await audit(ctx, tx, {
        actor: id,
        action: USER_REGISTRATION_ACTION,
        target: id,
        outcome: 'success',
        details: { count: locationIds.length },
      });
      for (const locationId of requested)
        await audit(ctx, tx, {
          actor: id,
          action: 'access-request.create',
          target: locationId,
          outcome: 'success',
          details: { locationId },
        });
      return id;
    });
  } catch (err) {
    throw await registrationFailure(ctx, input, err, USER_REGISTRATION_ACTION);
  }
  ctx.log.info({ userId, locations: locationIds.length }, 'end user registered (pending verification)');
  ctx.jobs.kick(OUTBOX_JOB);
}
