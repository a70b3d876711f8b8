import { z } from 'zod';
import { type EmailBody } from '../../platform/mail/layout';
import { defineEmails } from '../../platform/mail/outbox';

/** The emails of DDE access (docs/requirements/portal.md#dde-access-request): the data each needs (checked when it is queued) and how it reads. */
export const { enqueueEmail } = defineEmails({
  // DDE access (docs/requirements/portal.md#dde-access-request).
  'dde-request-received': {
    data: z.strictObject({
      firstName: z.string().max(100),
      referenceNumber: z.string().max(32),
      legalName: z.string().max(200),
    }),
    body: (d: { firstName: string; referenceNumber: string; legalName: string }): EmailBody => ({
      subject: `DDE access request ${d.referenceNumber} received`,
      paragraphs: [
        `Hello ${d.firstName},`,
        `We received your direct data entry (DDE) access request for ${d.legalName}. Its reference number is ${d.referenceNumber}: quote it when you contact us about it.`,
      ],
    }),
  },
});
