/**
 * The `next` of `/login?next=…` when it is a same-site relative path, else `fallback` (docs/requirements/session.md#login):
 * never an absolute or protocol-relative address (`//evil.example`, `/\evil.example`), so the login cannot be
 * turned into an open redirect; and never one of `deadEnds` (pages that need an emailed link the login has lost).
 */
export function safeNextPath(
  next: string | null | undefined,
  fallback = '/',
  deadEnds: readonly string[] = [],
): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  try {
    const url = new URL(next, 'https://portal.invalid');
    if (url.origin !== 'https://portal.invalid') return fallback;
    if (deadEnds.includes(url.pathname.replace(/\/+$/, '') || '/')) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
