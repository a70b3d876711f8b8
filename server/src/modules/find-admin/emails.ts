import { z } from 'zod';
import { inertText, PRODUCT_NAME, type EmailBody } from '../../platform/mail/layout';
import { defineEmails } from '../../platform/mail/outbox';

/** The emails of find my administrator (docs/requirements/portal.md#find-my-administrator): the data each needs (checked when it is queued) and how it reads. */
export const { enqueueEmail } = defineEmails({
  // Find my administrator (docs/requirements/portal.md#find-my-administrator): a visitor's request, relayed.
  'find-admin-contact-request': {
    data: z.strictObject({
      firstName: z.string().max(100),
      legalName: z.string().max(200),
      npi: z.string().max(10),
      ptan: z.string().max(10),
      name: z.string().max(100),
      email: z.string().max(254),
      phone: z.string().max(10),
      message: z.string().max(500),
    }),
    body: (d: {
      firstName: string;
      legalName: string;
      npi: string;
      ptan: string;
      name: string;
      email: string;
      phone: string;
      message: string;
    }): EmailBody => ({
      subject: 'Someone asks you to contact them',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Someone looked up the administrator of ${d.legalName} (NPI ${d.npi}, PTAN ${d.ptan}) on the portal's "Find my administrator" page and asks you to contact them. Your email address was not shown to them.`,
        `Name: ${inertText(d.name)}`,
        `Email: ${d.email}`,
        `Phone: ${d.phone.slice(0, 3)}-${d.phone.slice(3, 6)}-${d.phone.slice(6)}`,
        {
          heading: `Their message, quoted as they typed it (the visitor wrote it, not the ${PRODUCT_NAME}; links in it are disabled):`,
          quoted: d.message,
        },
        'The portal did not check who they are: confirm it before you give anyone access to your location. If the request looks unwanted, ignore this email.',
      ],
    }),
  },
});
