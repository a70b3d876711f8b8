import { PAGE_PATHS } from '@portal/contracts/paths';
import { z } from 'zod';
import { LISTED_MAX, type EmailBody } from '../../platform/mail/layout';
import { defineEmails } from '../../platform/mail/outbox';

/** The emails of recertification and request notices to administrators (docs/requirements/staff-accounts.md): the data each needs (checked when it is queued) and how it reads. */
export const { enqueueEmail } = defineEmails({
  // Staff accounts (docs/requirements/staff-accounts.md): recertification and request notices to administrators.
  'recertification-due': {
    data: z.strictObject({
      firstName: z.string().max(100),
      people: z
        .array(z.strictObject({ name: z.string().max(201), location: z.string().max(300), daysLeft: z.number().int() }))
        .min(1)
        .max(LISTED_MAX),
      /** People due beyond the listed ones. */
      more: z.number().int().min(0).default(0),
    }),
    body: (d: {
      firstName: string;
      people: { name: string; location: string; daysLeft: number }[];
      more?: number;
    }): EmailBody => ({
      subject: 'Recertification due for people of your locations',
      paragraphs: [
        `Hello ${d.firstName},`,
        'The access of these people to your provider locations must be recertified: keep it or remove it, or it is suspended on its date.',
        ...d.people.map((p) => `${p.name}, ${p.location}: due in ${p.daysLeft} ${p.daysLeft === 1 ? 'day' : 'days'}.`),
        ...(d.more ? [`And ${d.more} more.`] : []),
      ],
      link: { label: 'Recertify', path: PAGE_PATHS.recertify },
    }),
  },
  'location-access-suspended': {
    data: z.strictObject({
      firstName: z.string().max(100),
      locations: z.array(z.string().max(300)).min(1).max(LISTED_MAX),
    }),
    body: (d: { firstName: string; locations: string[] }): EmailBody => ({
      subject: 'Your access to a provider location was suspended',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Your access to ${d.locations.join('; ')} was not recertified by an administrator of the location in time, so it is suspended.`,
        'Ask an administrator of the location to recertify it. Your account itself still works.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'access-requests-pending': {
    data: z.strictObject({
      firstName: z.string().max(100),
      /** `new`: the hourly notice of requests that arrived; `digest`: the weekly list of those still pending. */
      kind: z.enum(['new', 'digest']),
      requests: z
        .array(
          z.strictObject({ name: z.string().max(201), username: z.string().max(64), location: z.string().max(300) }),
        )
        .min(1)
        .max(LISTED_MAX),
      more: z.number().int().min(0).default(0),
    }),
    body: (d: {
      firstName: string;
      kind: 'new' | 'digest';
      requests: { name: string; username: string; location: string }[];
      more?: number;
    }): EmailBody => ({
      subject:
        d.kind === 'new' ? 'New requests for access to your locations' : 'Requests still waiting for your decision',
      paragraphs: [
        `Hello ${d.firstName},`,
        d.kind === 'new'
          ? 'These people asked for access to your provider locations:'
          : 'These requests for access to your provider locations are still waiting for a decision:',
        ...d.requests.map((r) => `${r.name} (${r.username}), ${r.location}.`),
        ...(d.more ? [`And ${d.more} more.`] : []),
        // "Staff accounts": the one name of the administrator's pages (portal home, page title, emails).
        'Approve or deny each one on Staff accounts.',
      ],
      link: { label: 'Open Staff accounts', path: PAGE_PATHS.recertify.replace(/\/recertify$/, '') },
    }),
  },
});
