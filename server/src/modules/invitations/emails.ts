import { PAGE_PATHS, tokenLinkPath } from '@portal/contracts/paths';
import { INVITATION_TTL_MS } from '@portal/contracts/invitations';
import { z } from 'zod';
import { PRODUCT_NAME, type EmailBody } from '../../platform/mail/layout';
import { defineEmails } from '../../platform/mail/outbox';

/** The emails of invitations (docs/requirements/staff-accounts.md#invitations): the data each needs (checked when it is queued) and how it reads. */
export const { enqueueEmail } = defineEmails({
  // Staff accounts (docs/requirements/staff-accounts.md#invitations).
  invitation: {
    data: z.strictObject({
      inviterName: z.string().max(201),
      locationName: z.string().max(300),
      role: z.enum(['administrator', 'user']),
      token: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/),
    }),
    body: (d: {
      inviterName: string;
      locationName: string;
      role: 'administrator' | 'user';
      token: string;
    }): EmailBody => ({
      subject: `You are invited to ${d.locationName}`,
      paragraphs: [
        'Hello,',
        `${d.inviterName || 'An administrator'} invited you to use the ${PRODUCT_NAME} for ${d.locationName}, as ${d.role === 'administrator' ? 'an administrator' : 'a user'} of that provider location.`,
        `Open the link below to create your account with this email address, or, if you already have an account with it, to log in and add the location. The link works once, within ${Math.round(INVITATION_TTL_MS / 86_400_000)} days of this email.`,
        'If you did not expect this invitation, ignore this email: nothing happens without the link.',
      ],
      // The token travels in the fragment, so it never reaches server logs or Referer headers.
      link: { label: 'Open the invitation', path: tokenLinkPath(PAGE_PATHS.invitation, d.token) },
    }),
  },
});
