/**
 * The `next` of `/login?next=…` when it is a same-site relative path, else `fallback` (docs/requirements/session.md#login):
 * never an absolute or protocol-relative address (`//evil.example`, `/\evil.example`), so the login cannot be
 * turned into an open redirect.
 */
export function safeNextPath(next: string | null | undefined, fallback = '/'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  try {
    const url = new URL(next, 'https://portal.invalid');
    if (url.origin !== 'https://portal.invalid') return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
