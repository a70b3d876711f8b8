import { PAGE_PATHS } from '@portal/contracts/paths';
import { z } from 'zod';
import { type EmailBody } from '../platform/mail/layout';
import { defineEmails } from '../platform/mail/outbox';

/** Every notice of a credential change says this (docs/requirements/session.md#credential-changes). */
export const TOKENS_CANCELLED =
  'Links and codes we emailed you before this change no longer work, and an email address change that was not yet confirmed was cancelled: ask again if you still need one.';

/** The emails of the account rules several features share (docs/requirements/session.md#credential-changes): the data each needs (checked when it is queued) and how it reads. */
export const { enqueueEmail, templates: identityEmails } = defineEmails({
  'password-changed': {
    data: z.strictObject({
      firstName: z.string().max(100),
      /** The passkeys the account keeps (a password change does not remove them): the owner checks the list. */
      passkeys: z.array(z.string().max(100)).max(20).optional(),
    }),
    body: (d: { firstName: string; passkeys?: string[] }): EmailBody => ({
      subject: 'Your password was changed',
      paragraphs: [
        `Hello ${d.firstName},`,
        'The password of your account was just changed. If this was not you, contact the help desk at once.',
        TOKENS_CANCELLED,
        ...(d.passkeys?.length
          ? [
              `Your account keeps its passkeys: ${d.passkeys.map((name) => `"${name}"`).join(', ')}. A passkey never replaces the password, but if you do not recognise one, remove it on My account and contact the help desk.`,
            ]
          : []),
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
});
