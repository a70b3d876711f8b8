import type { z } from 'zod';
import { renderLayout, type EmailBody, type RenderedEmail } from './layout';

/** One email: the data it needs (checked when it is queued) and how it reads. */
export interface EmailTemplate {
  data: z.ZodType;
  body: (data: never) => EmailBody;
}

export type EmailTemplates = Record<string, EmailTemplate>;

/**
 * Every template by name. Each feature defines its own in its `emails.ts` (`defineEmails`), which registers them here;
 * `server/src/emails.ts` loads every feature's, so the outbox sender and the mail viewer can render any queued email.
 */
const registered = new Map<string, EmailTemplate>();

/** Adds a feature's templates; a name another feature already took is a mistake, refused at start-up. */
export function registerEmails(templates: EmailTemplates): void {
  for (const [name, template] of Object.entries(templates)) {
    if (registered.get(name) && registered.get(name) !== template)
      throw new Error(`email template ${name} is defined twice`);
    registered.set(name, template);
  }
}

export function emailTemplate(name: string): EmailTemplate {
  const template = registered.get(name);
  if (!template) throw new Error(`unknown email template ${name}`);
  return template;
}

export function renderEmail(publicUrl: string, template: string, data: unknown): RenderedEmail {
  const entry = emailTemplate(template);
  return renderLayout(publicUrl, entry.body(entry.data.parse(data) as never));
}
