import { PAGE_PATHS } from '@portal/contracts/paths';
import { z } from 'zod';
import { type EmailBody } from '../../platform/mail/layout';
import { defineEmails } from '../../platform/mail/outbox';

/** The emails of the administrators' console (docs/requirements/staff-accounts.md#the-administrators-console): the data each needs (checked when it is queued) and how it reads. */
export const { enqueueEmail } = defineEmails({
  // Staff accounts (docs/requirements/staff-accounts.md#the-administrators-console).
  'access-request-decided': {
    data: z.strictObject({
      firstName: z.string().max(100),
      legalName: z.string().max(200),
      decision: z.enum(['approved', 'denied']),
      role: z.enum(['administrator', 'user']).optional(),
      /** The denying administrator's reason, when they gave one. */
      reason: z.string().max(500).optional(),
    }),
    body: (d: {
      firstName: string;
      legalName: string;
      decision: 'approved' | 'denied';
      role?: 'administrator' | 'user';
      reason?: string;
    }): EmailBody =>
      d.decision === 'approved'
        ? {
            subject: `Your access to ${d.legalName} was approved`,
            paragraphs: [
              `Hello ${d.firstName},`,
              `An administrator of ${d.legalName} approved your request: you now have access to this provider location${d.role === 'administrator' ? ' as one of its administrators' : ''}. Log in to use it.`,
            ],
            link: { label: 'Log in', path: PAGE_PATHS.login },
          }
        : {
            subject: `Your request for access to ${d.legalName} was denied`,
            paragraphs: [
              `Hello ${d.firstName},`,
              `An administrator of ${d.legalName} denied your request for access to this provider location.`,
              ...(d.reason ? [`The reason they gave: ${d.reason}`] : []),
              'If you think this is a mistake, contact the administrator of the location.',
            ],
          },
  },
  'account-changed-by-admin': {
    data: z.strictObject({
      firstName: z.string().max(100),
      change: z.enum(['disabled', 'enabled', 'unlocked', 'mfa-reset']),
      /** Who acted: an administrator of the person's location (the default) or the contractor's help desk. */
      by: z.enum(['administrator', 'help-desk']).optional(),
    }),
    body: (d: {
      firstName: string;
      change: 'disabled' | 'enabled' | 'unlocked' | 'mfa-reset';
      by?: 'administrator' | 'help-desk';
    }): EmailBody => {
      const helpDesk = d.by === 'help-desk';
      const who = helpDesk ? 'The help desk' : 'An administrator of your provider location';
      const what = {
        disabled: {
          subject: 'Your account was disabled',
          text: `${who} disabled your account: you cannot log in until ${helpDesk ? 'the help desk' : 'an administrator'} enables it again.`,
        },
        enabled: {
          subject: 'Your account was enabled',
          text: `${who} enabled your account again: you can log in.`,
        },
        unlocked: {
          subject: 'Your account was unlocked',
          text: `${who} unlocked your account: you can log in again.`,
        },
        'mfa-reset': {
          subject: 'Your authenticator app was reset',
          text: `${who} reset the second step of your login: your authenticator app, recovery codes and passkeys no longer work, and you were logged out. At your next login you set up an authenticator app again.`,
        },
      }[d.change];
      return {
        subject: what.subject,
        paragraphs: [`Hello ${d.firstName},`, what.text, 'If you did not expect this, contact the help desk.'],
        ...(d.change === 'disabled' ? {} : { link: { label: 'Log in', path: PAGE_PATHS.login } }),
      };
    },
  },
});
