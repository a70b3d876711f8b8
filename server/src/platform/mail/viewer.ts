import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { outbox } from '../../db/schema';
import { PortalError } from '../portal-error';
import { escapeHtml } from './layout';
import { renderEmail } from './registry';

export const MAIL_VIEWER_PATH = '/dev/mail';

function page(title: string, body: string): string {
  // No script and no inline style: the server's CSP applies unchanged. Everything shown is escaped.
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body><main>\n${body}\n</main></body></html>\n`;
}

/**
 * The development mail viewer (MAIL_VIEWER=true; refused in production by the configuration): every email in the
 * outbox, sent or not, with its plain and HTML parts. The HTML part is shown as escaped source, never rendered.
 */
export async function mailViewerRoutes(app: FastifyInstance) {
  const { db } = app.database;
  const { publicUrl } = app.config;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(MAIL_VIEWER_PATH, async (_request, reply) => {
    const rows = await db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(200);
    const items = rows.map((row) => {
      let subject = row.template;
      try {
        subject = renderEmail(publicUrl, row.template, row.data).subject;
      } catch {
        /* an old template: show its name */
      }
      const state = row.sentAt ? 'sent' : row.attempts ? `not sent (${row.attempts} attempts)` : 'queued';
      return `<li><a href="${MAIL_VIEWER_PATH}/${escapeHtml(row.id)}">${escapeHtml(subject)}</a> to ${escapeHtml(row.recipient)}, ${escapeHtml(row.createdAt.toISOString())}, ${state}</li>`;
    });
    const body = `<h1>Mail viewer</h1>\n<p>Development only: emails the portal queued, newest first.</p>\n${items.length ? `<ul>\n${items.join('\n')}\n</ul>` : '<p>No emails yet.</p>'}`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page('Mail viewer', body));
  });

  routes.get(`${MAIL_VIEWER_PATH}/:id`, { schema: { params: z.object({ id: z.uuid() }) } }, async (request, reply) => {
    const [row] = await db.select().from(outbox).where(eq(outbox.id, request.params.id));
    if (!row) throw new PortalError(404, 'Not_Found');
    const email = renderEmail(publicUrl, row.template, row.data);
    const body = [
      `<p><a href="${MAIL_VIEWER_PATH}">All emails</a></p>`,
      `<h1>${escapeHtml(email.subject)}</h1>`,
      `<dl><dt>To</dt><dd>${escapeHtml(row.recipient)}</dd><dt>Queued</dt><dd>${escapeHtml(row.createdAt.toISOString())}</dd></dl>`,
      '<h2>Plain text part</h2>',
      `<pre>${escapeHtml(email.text)}</pre>`,
      '<h2>HTML part</h2>',
      `<pre>${escapeHtml(email.html)}</pre>`,
    ].join('\n');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page(email.subject, body));
  });
}
