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

/**
 * A time span as people read it in an email ("30 minutes", "1 hour", "2 hours"): never a clock time, whose time zone
 * (the server's GMT) would not be the reader's.
 */
export function durationText(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60 || minutes % 60 !== 0) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = minutes / 60;
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

/**
 * Text someone outside the portal wrote (the contact relay's visitor), shown fenced: a marked, quoted block whose
 * every line starts with "> " in the plain-text part and a blockquote in the HTML part, so nothing in it (a fake
 * footer, a "security notice") can read as the portal's own words; its links are made inert (`inertText`).
 */
interface QuotedText {
  /** The line above the block, naming who wrote it (not the portal). */
  heading: string;
  quoted: string;
}

/** What a template writes; the layout adds the product's name, the link and the signature, in both parts. */
export interface EmailBody {
  subject: string;
  /** Paragraphs of plain text, each escaped for the HTML part; a quoted block is fenced (`QuotedText`). */
  paragraphs: (string | QuotedText)[];
  link?: { label: string; path: string };
}

/** Where a quoted block ends, in the plain-text part; how it looks in the HTML part (a grey bar on its left). */
const QUOTE_END = '[End of the quoted text]';
const QUOTE_STYLE = 'margin:0 0 1em;padding:0.5em 1em;border-left:4px solid #888;background:#f3f3f3';

/**
 * Text from outside made link-free, as security teams "defang" addresses they quote (docs/decisions/0048): a scheme
 * loses its meaning (`https://` → `hxxps://`, `ftp://` → `fxp://`), and the dots of anything a mail program would
 * turn into a link by itself (a host name such as `portal-renewal.example.net`, `www.…`, an email address's domain,
 * an IPv4 address) become `[.]`. Mail programs link neither, and the reader still sees what was written.
 */
export function inertText(text: string): string {
  return text
    .replace(/\bh(tt)(?=ps?:)|\bf(t)(?=p:)/gi, (scheme: string) => scheme.replace(/t/g, 'x').replace(/T/g, 'X'))
    .replace(/[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu, (name) =>
      // Host names (the last label at least two letters: not "e.g") and dotted IPv4 addresses; "3.5" stays.
      /\.\p{L}[\p{L}\p{N}-]+$/u.test(name) || /^\d{1,3}(\.\d{1,3}){3}$/.test(name) ? name.replaceAll('.', '[.]') : name,
    );
}

const isQuote = (p: string | QuotedText): p is QuotedText => typeof p !== 'string';
const quotedLines = (q: QuotedText) => inertText(q.quoted).split(/\r\n|[\r\n\u2028\u2029]/);

/** An email's plain-text and HTML parts from its body, in the portal's one layout. */
export function renderLayout(publicUrl: string, body: EmailBody): RenderedEmail {
  const url = body.link ? portalLink(publicUrl, body.link.path) : undefined;
  const textOf = (p: string | QuotedText) =>
    isQuote(p) ? [p.heading, ...quotedLines(p).map((line) => `> ${line}`.trimEnd()), QUOTE_END].join('\n') : p;
  const htmlOf = (p: string | QuotedText) =>
    isQuote(p)
      ? `<p>${escapeHtml(p.heading)}</p>\n<blockquote style="${QUOTE_STYLE}">${quotedLines(p).map(escapeHtml).join('<br>\n')}</blockquote>`
      : `<p>${escapeHtml(p)}</p>`;
  const text =
    [...body.paragraphs.map(textOf), ...(url ? [`${body.link!.label}: ${url}`] : []), `— ${PRODUCT_NAME}`].join(
      '\n\n',
    ) + '\n';
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(body.subject)}</title></head><body>`,
    `<h1>${escapeHtml(PRODUCT_NAME)}</h1>`,
    ...body.paragraphs.map(htmlOf),
    ...(url ? [`<p><a href="${escapeHtml(url)}">${escapeHtml(body.link!.label)}</a></p>`] : []),
    '</body></html>',
  ].join('\n');
  return { subject: `${PRODUCT_NAME}: ${body.subject}`, text, html };
}

/** The most people or requests one email lists (the rest are counted). */
export const LISTED_MAX = 50;
