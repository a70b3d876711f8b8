import { PAGE_PATHS } from '@portal/contracts/paths';
import { z } from 'zod';
import { type EmailBody } from '../../platform/mail/layout';
import { defineEmails } from '../../platform/mail/outbox';

/**
 * The help desk's own notices (docs/requirements/help-desk.md#actions); the account changes it shares with the
 * administrators (unlock, MFA reset, disable, enable) send the administrators' notice, signed "The help desk".
 */
export const { enqueueEmail } = defineEmails({
  'help-desk-sessions-ended': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): EmailBody => ({
      subject: 'You were logged out',
      paragraphs: [
        `Hello ${d.firstName},`,
        'The help desk ended every session of your account: log in again to continue.',
        'If you did not expect this, contact the help desk.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'help-desk-made-administrator': {
    data: z.strictObject({ firstName: z.string().max(100), legalName: z.string().max(300) }),
    body: (d: { firstName: string; legalName: string }): EmailBody => ({
      subject: `You are now an administrator of ${d.legalName}`,
      paragraphs: [
        `Hello ${d.firstName},`,
        `The help desk made you an administrator of ${d.legalName}: you approve its access requests and recertify its people.`,
        'If you did not expect this, contact the help desk.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
});
