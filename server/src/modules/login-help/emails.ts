import { PAGE_PATHS, tokenLinkPath, wizardStepPath } from '@portal/contracts/paths';
import { REACTIVATION_CODE_TTL_MS, RESET_TOKEN_TTL_MS } from '@portal/contracts/login-help';
import { z } from 'zod';
import { identityEmails } from '../../identity/emails';
import { TOKENS_CANCELLED } from '../../identity/emails';
import { durationText, type EmailBody } from '../../platform/mail/layout';
import { defineEmails } from '../../platform/mail/outbox';

/** The emails of login help (docs/requirements/portal.md#login-help): the data each needs (checked when it is queued) and how it reads. */
const { templates: loginHelpEmails } = defineEmails({
  // Login help (docs/requirements/portal.md#login-help).
  'username-reminder': {
    data: z.strictObject({ usernames: z.array(z.string().max(64)).min(1).max(20) }),
    body: (d: { usernames: string[] }): EmailBody => ({
      subject: 'Your username',
      paragraphs: [
        'Someone asked for the username of the account that uses this email address.',
        `${d.usernames.length === 1 ? 'Your username is' : 'Your usernames are'}: ${d.usernames.join(', ')}`,
        'If this was not you, you can ignore this email: nothing was changed.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'password-reset-link': {
    data: z.strictObject({
      firstName: z.string().max(100),
      token: z.string().max(256),
      expiresAt: z.iso.datetime({ offset: true }),
    }),
    body: (d: { firstName: string; token: string; expiresAt: string }): EmailBody => ({
      subject: 'Reset your password',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Someone asked to reset the password of your account. The link below works once, within ${durationText(RESET_TOKEN_TTL_MS)} of this email. You will be asked one of your security questions.`,
        'If this was not you, ignore this email: your password stays as it is.',
      ],
      // The token travels in the fragment, so it never reaches server logs or Referer headers.
      link: { label: 'Reset your password', path: tokenLinkPath(PAGE_PATHS.resetPassword, d.token) },
    }),
  },
  'reactivation-code': {
    data: z.strictObject({
      firstName: z.string().max(100),
      code: z.string().max(32),
      expiresAt: z.iso.datetime({ offset: true }),
      /** `disabled_inactive`: the code reactivates; otherwise the account cannot be reactivated online. */
      status: z.enum(['disabled_inactive', 'locked', 'disabled_admin']),
    }),
    body: (d: { firstName: string; code: string; expiresAt: string; status: string }): EmailBody => ({
      subject: 'Your account reactivation code',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Your reactivation code is ${d.code}. Enter it within ${durationText(REACTIVATION_CODE_TTL_MS)} of this email.`,
        d.status === 'disabled_inactive'
          ? 'Enter it on the reactivation page, then answer one of your security questions and choose a new password.'
          : d.status === 'locked'
            ? 'Your account is locked and cannot be reactivated online: contact the provider contact center (help desk).'
            : "Your account was disabled by an administrator and cannot be reactivated online: contact your location's administrator.",
        'If this was not you, ignore this email: nothing was changed.',
      ],
      // The code step: the person gave the username and date of birth already (a new tab asks for the username).
      link: { label: 'Reactivate your account', path: wizardStepPath(PAGE_PATHS.reactivate, 'code') },
    }),
  },
  'account-reactivated': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): EmailBody => ({
      subject: 'Your account is active again',
      paragraphs: [
        `Hello ${d.firstName},`,
        'Your account was reactivated and its password changed. Log in with the new password and your authenticator app.',
        'If this was not you, contact the help desk at once.',
        TOKENS_CANCELLED,
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'account-disabled-inactive': {
    data: z.strictObject({ firstName: z.string().max(100), days: z.number().int() }),
    body: (d: { firstName: string; days: number }): EmailBody => ({
      subject: 'Your account was disabled after inactivity',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Your account was disabled because nobody logged in to it for ${d.days} days. You can reactivate it yourself: you will need your username, date of birth, this email address and one of your security answers.`,
      ],
      // The code step: the person gave the username and date of birth already (a new tab asks for the username).
      link: { label: 'Reactivate your account', path: wizardStepPath(PAGE_PATHS.reactivate, 'code') },
    }),
  },
});

/** Login help's emails, and the password-changed notice a reset sends (identity's). */
export const { enqueueEmail } = defineEmails({ ...loginHelpEmails, ...identityEmails });
