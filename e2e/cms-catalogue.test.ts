import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { gotoHydrated } from './support/browser';
import { repoRoot } from './support/portal-server';
import { portalSuite } from './support/portal-suite';

const registry = JSON.parse(readFileSync(join(repoRoot, 'packages/contracts/src/error-codes.json'), 'utf8')) as Record<
  string,
  string
>;
/** The content types the portal reads: one list in the contracts, shared with the server and the CMS. */
const contentTypeNames = Object.keys(
  (JSON.parse(readFileSync(join(repoRoot, 'packages/contracts/src/content-types.json'), 'utf8')) as { types: object })
    .types,
);

interface Entry<T> {
  attributes: T;
}

async function content<T>(path: string): Promise<Entry<T>[]> {
  const res = await fetch(`${inject('portalUrl')}/api/content/${path}`);
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: Entry<T>[] }).data;
}

describe('the CMS seed and the portal contracts', () => {
  it('has an error message for every code in the registry, the generic code included', async () => {
    // The content proxy answers at most 100 entries a page (server/src/content/allow-list.ts); the registry has more.
    const messages: Entry<{ ErrorCode: string; Message: string }>[] = [];
    for (let page = 1; page === 1 || messages.length === (page - 1) * 100; page++)
      messages.push(
        ...(await content<{ ErrorCode: string; Message: string }>(
          `error-messages?pagination[pageSize]=100&pagination[page]=${page}`,
        )),
      );
    const codes = new Set(messages.map((m) => m.attributes.ErrorCode));
    expect(Object.keys(registry).filter((code) => !codes.has(code))).toEqual([]);
    expect(codes.has('Generic_Error_For_Services')).toBe(true);
  });

  it('seeds at least six security questions and eight published topics', async () => {
    expect((await content('security-questions?pagination[pageSize]=100')).length).toBeGreaterThanOrEqual(6);
    expect((await content('topics?pagination[pageSize]=100')).length).toBeGreaterThanOrEqual(8);
  });

  it('lists the home page and every published topic, no draft, in /sitemap.xml', async () => {
    const res = await fetch(`${inject('portalUrl')}/sitemap.xml`);
    expect(res.headers.get('content-type')).toMatch(/application\/xml/);
    const xml = await res.text();
    expect(xml).toContain(`<loc>${inject('portalUrl')}/</loc>`);
    expect(xml).toContain('/topics/rendering-examples</loc>');
    expect(xml).not.toContain('draft-topic-example');
  });

  it('keeps public (unauthenticated) CMS access off', async () => {
    expect(contentTypeNames).toHaveLength(7);
    for (const type of contentTypeNames) {
      const res = await fetch(`${inject('cmsUrl')}/api/${type}`);
      // 401 since the public role holds no permission at all (the CMS bootstrap empties it).
      expect([401, 403], type).toContain(res.status);
    }
  });
});

describe('error messages in the page (docs/requirements/api.md#error-message-lookup-and-fallback: code, then the default code, then the fallback text)', () => {
  const portal = portalSuite();

  async function topicFailingWith(code: string, options: { messagesDown?: boolean } = {}) {
    // The failures this test makes on purpose show in the console as failed requests.
    const { context, page } = await portal.newPage({ allowConsoleErrors: [/status of 400/, /ERR_FAILED/] });
    await page.route('**/api/content/topics?*', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ errorMessage: code }) }),
    );
    if (options.messagesDown) await page.route('**/api/content/error-messages?*', (route) => route.abort());
    // The server renders /topics/contact with its content (docs/decisions/0018-server-rendering.md): the browser
    // fetches a topic itself only when it navigates in the app, here from the home page's footer once hydrated.
    await gotoHydrated(page, '/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact us' }).click();
    await page.waitForURL('**/topics/contact');
    // The topic's own error (with its Try again): the home page's notices stay on screen until the topic's code loads.
    const alert = page.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Try again' }) });
    await alert.waitFor();
    await expect.poll(() => alert.innerText(), { timeout: 20_000 }).not.toMatch(/Loading/);
    const text = (await alert.innerText()).replace(/\s*Try again\s*$/, '').trim();
    await context.close();
    return text;
  }

  it('shows the CMS message for a known code', async () => {
    const [cms] = await content<{ Message: string }>('error-messages?filters[ErrorCode][$eq]=Validation_Failed');
    expect(await topicFailingWith('Validation_Failed')).toBe(cms!.attributes.Message);
  });

  it("falls back to the generic code's message for a code the CMS does not know", async () => {
    const [generic] = await content<{ Message: string }>(
      'error-messages?filters[ErrorCode][$eq]=Generic_Error_For_Services',
    );
    expect(generic!.attributes.Message).not.toBe('An error has happened, please try again.');
    expect(await topicFailingWith('Some_Unknown_Code')).toBe(generic!.attributes.Message);
  });

  it("says 'An error has happened, please try again.' when the messages cannot be read", async () => {
    expect(await topicFailingWith('Validation_Failed', { messagesDown: true })).toBe(
      'An error has happened, please try again.',
    );
  });
});
