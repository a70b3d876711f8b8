import { PAGE_PATHS } from '@portal/contracts/paths';
import { z } from 'zod';
import { durationText, type EmailBody } from '../../platform/mail/layout';
import { defineEmails } from '../../platform/mail/outbox';

/** The emails of login (docs/requirements/session.md#lockout): the data each needs (checked when it is queued) and how it reads. */
export const { enqueueEmail } = defineEmails({
  'account-locked': {
    data: z.union([
      z.strictObject({
        firstName: z.string().max(100),
        unlockAt: z.iso.datetime({ offset: true }),
        /** How long the lock lasts (emails queued before this field existed say "later"). */
        lockMinutes: z.number().int().positive().optional(),
      }),
      /** The daily ceiling of wrong passwords was reached: only the help desk unlocks the account. */
      z.strictObject({ firstName: z.string().max(100), helpDesk: z.literal(true) }),
    ]),
    body: (d: { firstName: string; unlockAt?: string; lockMinutes?: number; helpDesk?: true }): EmailBody => ({
      subject: 'Your account is locked',
      paragraphs: [
        `Hello ${d.firstName},`,
        d.helpDesk
          ? 'Your account was locked after too many failed login attempts in one day. Only the help desk can unlock it now: call the provider contact center.'
          : `Your account was locked after several failed login attempts. ${d.lockMinutes ? `You can try again in ${durationText(d.lockMinutes * 60_000)}.` : 'You can try again later.'}`,
        'If this was not you, reset your password and contact the help desk.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
});
