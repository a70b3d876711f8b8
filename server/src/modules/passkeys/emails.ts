import { PAGE_PATHS } from '@portal/contracts/paths';
import { z } from 'zod';
import { TOKENS_CANCELLED } from '../../identity/emails';
import { type EmailBody } from '../../platform/mail/layout';
import { defineEmails } from '../../platform/mail/outbox';

/** The emails of passkeys (docs/requirements/session.md#credential-changes): the data each needs (checked when it is queued) and how it reads. */
export const { enqueueEmail } = defineEmails({
  'passkey-changed': {
    data: z.strictObject({
      firstName: z.string().max(100),
      change: z.enum(['added', 'removed']),
      name: z.string().max(100),
    }),
    body: (d: { firstName: string; change: 'added' | 'removed'; name: string }): EmailBody => ({
      subject: d.change === 'added' ? 'A passkey was added to your account' : 'A passkey was removed from your account',
      paragraphs: [
        `Hello ${d.firstName},`,
        d.change === 'added'
          ? `A passkey named "${d.name}" was just added to your account. It can be used instead of your authenticator app at login.`
          : `The passkey named "${d.name}" was just removed from your account: it no longer works at login.`,
        'Every other session of your account was logged out.',
        TOKENS_CANCELLED,
        'If this was not you, log in, change your password, replace your authenticator app (this also removes every passkey) and contact the help desk at once.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
});
