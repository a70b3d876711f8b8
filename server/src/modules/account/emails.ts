import { PAGE_PATHS, tokenLinkPath } from '@portal/contracts/paths';
import { z } from 'zod';
import { TOKENS_CANCELLED } from '../../identity/emails';
import { type EmailBody } from '../../platform/mail/layout';
import { defineEmails } from '../../platform/mail/outbox';

/** The emails of My account (docs/requirements/session.md#my-account): the data each needs (checked when it is queued) and how it reads. */
export const { enqueueEmail } = defineEmails({
  'recovery-codes-renewed': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): EmailBody => ({
      subject: 'New recovery codes were made for your account',
      paragraphs: [
        `Hello ${d.firstName},`,
        'New recovery codes were made for your account on My account; the old codes no longer work. Your authenticator app is unchanged. If this was not you, contact the help desk at once.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'mfa-changed': {
    data: z.strictObject({
      firstName: z.string().max(100),
      /** How many passkeys the replacement removed (docs/decisions/0030-passkeys-and-credential-changes.md). */
      passkeysRemoved: z.number().int().min(0).optional(),
    }),
    body: (d: { firstName: string; passkeysRemoved?: number }): EmailBody => ({
      subject: 'Your authenticator app was replaced',
      paragraphs: [
        `Hello ${d.firstName},`,
        'A new authenticator app was set up for your account and new recovery codes were issued; the old app and codes no longer work. If this was not you, contact the help desk at once.',
        ...(d.passkeysRemoved
          ? [
              `Your ${d.passkeysRemoved === 1 ? 'passkey was' : `${d.passkeysRemoved} passkeys were`} removed with the old app: add your passkeys again on My account if you want to use them.`,
            ]
          : []),
        TOKENS_CANCELLED,
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  // My account (docs/requirements/session.md#my-account).
  'email-change-link': {
    data: z.strictObject({ firstName: z.string().max(100), token: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/) }),
    body: (d: { firstName: string; token: string }): EmailBody => ({
      subject: 'Confirm your new email address',
      paragraphs: [
        `Hello ${d.firstName},`,
        'You asked to use this email address for your account. Open the link below to confirm it; until then your account keeps its current address. The link works once and expires in 72 hours.',
        'If you did not ask for this, ignore this email: nothing changes.',
      ],
      // The token travels in the fragment, so it never reaches server logs or Referer headers.
      link: { label: 'Confirm my new email address', path: tokenLinkPath(PAGE_PATHS.confirmEmail, d.token) },
    }),
  },
  'email-change-requested': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): EmailBody => ({
      subject: 'A change of your email address was asked for',
      paragraphs: [
        `Hello ${d.firstName},`,
        'Someone logged in to your account asked to change its email address. The address changes only when the link sent to the new address is opened; until then this address stays on the account.',
        'If this was not you, log in, change your password and contact the help desk at once.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'email-change-in-use': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): EmailBody => ({
      subject: 'Someone tried to use your email address',
      paragraphs: [
        `Hello ${d.firstName},`,
        'Someone asked to move another portal account to this email address, which already belongs to your account. Nothing was changed.',
        'If it was you, log in with your existing account instead. If it was not you, you can ignore this email.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'email-changed': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): EmailBody => ({
      subject: 'Your email address was changed',
      paragraphs: [
        `Hello ${d.firstName},`,
        'The email address of your account was changed: from now on, emails about your account go to the new address, not to this one.',
        'If this was not you, contact the help desk at once.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'account-details-changed': {
    data: z.strictObject({ firstName: z.string().max(100), change: z.enum(['phone', 'security-answers']) }),
    body: (d: { firstName: string; change: 'phone' | 'security-answers' }): EmailBody => ({
      subject: d.change === 'phone' ? 'Your phone number was changed' : 'Your security questions were changed',
      paragraphs: [
        `Hello ${d.firstName},`,
        d.change === 'phone'
          ? 'The phone number of your account was just changed.'
          : 'The security questions and answers of your account were just replaced.',
        'If this was not you, change your password and contact the help desk at once.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
});
