import { PAGE_PATHS, tokenLinkPath } from '@portal/contracts/paths';
import { z } from 'zod';
import { type EmailBody } from '../../platform/mail/layout';
import { defineEmails } from '../../platform/mail/outbox';

/** The emails of registration: the data each needs (checked when it is queued) and how it reads. */
export const { enqueueEmail } = defineEmails({
  'verify-email': {
    data: z.strictObject({
      firstName: z.string().max(100),
      token: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/),
      /** `user`: an end user's registration (docs/requirements/staff-accounts.md#end-users); default administrator. */
      role: z.enum(['administrator', 'user']).optional(),
    }),
    body: (d: { firstName: string; token: string; role?: 'administrator' | 'user' }): EmailBody => ({
      subject: 'Confirm your email address',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Thank you for registering ${d.role === 'user' ? 'to ask for access to your provider locations' : 'as the administrator of your provider location'}. Confirm your email address to activate your account. The link works once and expires in 72 hours; after that the registration is removed and you can register again.`,
        'At your first login you will set up an authenticator app for the second login step.',
        'If you did not register, ignore this email.',
      ],
      // The token travels in the fragment, so it never reaches server logs or Referer headers.
      link: { label: 'Confirm my email address', path: tokenLinkPath(PAGE_PATHS.verifyEmail, d.token) },
    }),
  },
  'registration-email-in-use': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): EmailBody => ({
      subject: 'Someone tried to register with your email address',
      paragraphs: [
        `Hello ${d.firstName},`,
        'Someone just tried to register a new administrator account with this email address, which already belongs to an account. No new account was activated.',
        'If it was you, log in with your existing account instead (use Login help if you forgot your username or password). Ask the administrator of another location to give your account access to it.',
        'If it was not you, you can ignore this email.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
});
