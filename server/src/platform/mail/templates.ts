import { z } from 'zod';

/** The product's name as emails show it. */
export const PRODUCT_NAME = 'Medicare Provider Portal';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** A link into the portal, always built from PUBLIC_URL (never the request's Host header). */
export function portalLink(publicUrl: string, path: string): string {
  return new URL(path.startsWith('/') ? path : `/${path}`, `${publicUrl}/`).toString();
}

interface Body {
  subject: string;
  /** Paragraphs of plain text; each is escaped for the HTML part. */
  paragraphs: string[];
  link?: { label: string; path: string };
}

function render(publicUrl: string, body: Body): RenderedEmail {
  const url = body.link ? portalLink(publicUrl, body.link.path) : undefined;
  const text =
    [...body.paragraphs, ...(url ? [`${body.link!.label}: ${url}`] : []), `— ${PRODUCT_NAME}`].join('\n\n') + '\n';
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(body.subject)}</title></head><body>`,
    `<h1>${escapeHtml(PRODUCT_NAME)}</h1>`,
    ...body.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(url ? [`<p><a href="${escapeHtml(url)}">${escapeHtml(body.link!.label)}</a></p>`] : []),
    '</body></html>',
  ].join('\n');
  return { subject: `${PRODUCT_NAME}: ${body.subject}`, text, html };
}

/** Each template: the data it needs (checked when the email is queued) and how it reads. */
export const emailTemplates = {
  'account-locked': {
    data: z.strictObject({ firstName: z.string().max(100), unlockAt: z.iso.datetime({ offset: true }) }),
    body: (d: { firstName: string; unlockAt: string }): Body => ({
      subject: 'Your account is locked',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Your account was locked after several failed login attempts. You can try again after ${new Date(d.unlockAt).toUTCString()}.`,
        'If this was not you, reset your password and contact the help desk.',
      ],
      link: { label: 'Log in', path: '/login' },
    }),
  },
  'password-changed': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): Body => ({
      subject: 'Your password was changed',
      paragraphs: [
        `Hello ${d.firstName},`,
        'The password of your account was just changed. If this was not you, contact the help desk at once.',
      ],
      link: { label: 'Log in', path: '/login' },
    }),
  },
  'mfa-changed': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): Body => ({
      subject: 'Your authenticator app was replaced',
      paragraphs: [
        `Hello ${d.firstName},`,
        'A new authenticator app was set up for your account and new recovery codes were issued; the old app and codes no longer work. If this was not you, contact the help desk at once.',
      ],
      link: { label: 'Log in', path: '/login' },
    }),
  },
  'verify-email': {
    data: z.strictObject({ firstName: z.string().max(100), token: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/) }),
    body: (d: { firstName: string; token: string }): Body => ({
      subject: 'Confirm your email address',
      paragraphs: [
        `Hello ${d.firstName},`,
        'Thank you for registering as the administrator of your provider location. Confirm your email address to activate your account. The link works once and expires in 72 hours; after that the registration is removed and you can register again.',
        'At your first login you will set up an authenticator app for the second login step.',
        'If you did not register, ignore this email.',
      ],
      // The token travels in the fragment, so it never reaches server logs or Referer headers.
      link: { label: 'Confirm my email address', path: `/verify-email#token=${d.token}` },
    }),
  },
  'registration-email-in-use': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): Body => ({
      subject: 'Someone tried to register with your email address',
      paragraphs: [
        `Hello ${d.firstName},`,
        'Someone just tried to register a new administrator account with this email address, which already belongs to an account. No new account was activated.',
        'If it was you, log in with your existing account instead (use Login help if you forgot your username or password). Ask the administrator of another location to give your account access to it.',
        'If it was not you, you can ignore this email.',
      ],
      link: { label: 'Log in', path: '/login' },
    }),
  },
} as const;

export type EmailTemplateName = keyof typeof emailTemplates;
export type EmailTemplateData<T extends EmailTemplateName> = z.input<(typeof emailTemplates)[T]['data']>;

export function renderEmail(publicUrl: string, template: string, data: unknown): RenderedEmail {
  const entry = emailTemplates[template as EmailTemplateName];
  if (!entry) throw new Error(`unknown email template ${template}`);
  return render(publicUrl, entry.body(entry.data.parse(data) as never));
}
