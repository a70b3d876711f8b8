import { expect } from 'vitest';

const unescapeHtml = (value: string) =>
  value.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!,
  );

/**
 * The plain-text part of the newest email to `to` whose subject matches, queued at or after `since` — read from
 * the portal's mail viewer (`/dev/mail`, on with MAIL_VIEWER=true). Waits until it is there.
 */
export async function readEmail(
  portalUrl: string,
  { to, subject, since }: { to: string; subject: RegExp; since: Date },
): Promise<string> {
  let href: string | undefined;
  await expect
    .poll(
      async () => {
        const list = await (await fetch(`${portalUrl}/dev/mail`)).text();
        for (const [, link, title, recipient, queued] of list.matchAll(
          /<li><a href="([^"]+)">([^<]*)<\/a> to ([^,]+), ([^,]+),/g,
        )) {
          if (unescapeHtml(recipient!) === to && subject.test(unescapeHtml(title!)) && new Date(queued!) >= since) {
            href = link;
            return true;
          }
        }
        return false;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  const page = await (await fetch(`${portalUrl}${href}`)).text();
  const text = /<h2>Plain text part<\/h2>\s*<pre>([\s\S]*?)<\/pre>/.exec(page)?.[1];
  if (text === undefined) throw new Error(`no plain text part in ${href}`);
  return unescapeHtml(text);
}
