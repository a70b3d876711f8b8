import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cmsDir, cmsNode, startStrapi, type RunningStrapi } from '../server/test/support/strapi';
import { previewKey, previewPageUrl } from '../server/src/content/preview';
import errorCodePlaces from '../packages/contracts/src/error-code-places.json';
import { launchBrowser, screenshot } from './support/browser';
import { freePort, startPortal, type RunningPortal } from './support/portal-server';

/**
 * The editor's path in the real Strapi admin (issue 42): the admin panel built by `npm run build --prefix cms`
 * (built here when missing or stale, about two minutes), a CMS of this file's own with an administrator, and a portal its
 * webhook reaches.
 */
const EDITOR = { email: 'editor@example.com', password: 'Editor-Pass1' };
const TOPIC_LIST = '/admin/content-manager/collection-types/api::topic.topic';

let cms: RunningStrapi;
let portal: RunningPortal;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dataDir: string;

interface PortalTopic {
  attributes: { title: string; slug: string; jurisdictions: string[] | null; order: number | null };
}

async function portalTopics(): Promise<PortalTopic[]> {
  const res = await fetch(`${portal.url}/api/content/topics?pagination[pageSize]=100`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: PortalTopic[] }).data;
}

async function logIn() {
  await page.goto(`${cms.url}/admin/auth/login`);
  await page.getByLabel(/^Email/).fill(EDITOR.email);
  await page.getByLabel(/^Password/).fill(EDITOR.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/admin(\/)?$/);
}

/** Waits until the portal's server-rendered topic page (a fresh request, as a reload) holds `text`; the ms it took. */
async function msUntilPortalShows(path: string, text: string, timeoutMs = 10_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const res = await fetch(`${portal.url}${path}`);
    if (res.ok && (await res.text()).includes(text)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${path} did not show "${text}" within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('an editor in the Strapi admin', () => {
  beforeAll(async () => {
    // The admin panel, built when missing or older than cms/src/admin (as `npm start` does).
    const built = spawnSync(cmsNode, ['scripts/build-admin.mjs'], { cwd: cmsDir, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building the Strapi admin panel failed');
    dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-editor-'));
    const port = await freePort();
    cms = await startStrapi({
      portalDataDir: dataDir,
      webhookUrl: `http://localhost:${port}/api/content/webhook`,
      env: { CMS_SERVE_ADMIN: 'true', CMS_ADMIN_EMAIL: EDITOR.email, CMS_ADMIN_PASSWORD: EDITOR.password },
    });
    // The admin's address, the one origin allowed to frame the portal's preview pages.
    portal = await startPortal({ CMS_URL: cms.url, CMS_PUBLIC_URL: cms.url }, { port, dataDir });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    // Leaving a form the CMS refused asks whether to discard the changes: yes.
    page.on('dialog', (dialog) => void dialog.accept());
    await logIn();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
    await cms?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a topic with jurisdictions ticked in the form, publishes it, and the portal has it within 2 s', async () => {
    await page.goto(`${cms.url}${TOPIC_LIST}/create`);
    await page.getByLabel(/^title/i).fill('Cardiac rehab billing');
    await page.getByLabel(/^summary/i).fill('How to bill cardiac rehabilitation sessions.');
    const jurisdictions = page.getByRole('group', { name: /jurisdictions/i });
    await jurisdictions.getByRole('checkbox', { name: /J8 MAC Part B/ }).click();
    await jurisdictions.getByRole('checkbox', { name: /J5 MAC Part A/ }).click();
    await screenshot(page, 'cms-topic-editor');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved document').waitFor();
    // The slug comes from the title (it was `topic` before, whatever the title).
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published document').waitFor();
    const published = Date.now();
    const ms = await msUntilPortalShows('/topics/cardiac-rehab-billing', 'Cardiac rehab billing');
    expect(Date.now() - published).toBeLessThan(2000);
    expect(ms).toBeLessThan(2000);

    const topics = await portalTopics();
    const created = topics.find((t) => t.attributes.slug === 'cardiac-rehab-billing');
    // Stored in the contracts' order, as the list of codes the portal reads.
    expect(created?.attributes.jurisdictions).toEqual(['J5A', 'J8B']);
    // A new topic goes after the others, not to the top.
    const orders = topics.filter((t) => t !== created).map((t) => t.attributes.order ?? 0);
    expect(created?.attributes.order).toBeGreaterThan(Math.max(...orders));
  });

  it('previews an unpublished topic in one click, as the site renders it; nobody else sees the draft', async () => {
    const draft = { title: 'Wound care billing draft', body: 'Draft-only guidance 7731 for wound care claims.' };
    await page.goto(`${cms.url}${TOPIC_LIST}/create`);
    await page.getByLabel(/^title/i).fill(draft.title);
    await page.getByLabel(/^summary/i).fill('How to bill wound care.');
    await page.locator('.CodeMirror-lines').first().click();
    await page.keyboard.type(draft.body);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved document').waitFor();

    await page.getByRole('link', { name: 'Open preview' }).click();
    const frame = page.frameLocator('[data-testid="preview-iframe"]');
    // The site's own topic page (its header, heading and rendered markdown), with the draft's text.
    await frame.getByRole('heading', { level: 1, name: draft.title }).waitFor({ timeout: 20_000 });
    await frame.getByText(draft.body).waitFor();
    await frame.getByText(/Preview of the draft/).waitFor();
    await screenshot(page, 'cms-topic-preview');

    const src = new URL((await page.locator('[data-testid="preview-iframe"]').getAttribute('src'))!);
    expect(src.origin).toBe(portal.url);
    const documentId = /^\/preview\/topics\/([a-z0-9]+)$/.exec(src.pathname)![1]!;
    // The same page or draft read without the signature, expired, or moved to a later expiry: nothing of the draft.
    const key = previewKey(readFileSync(join(dataDir, 'cms-webhook-secret'), 'utf8').trim());
    const expired = new URL(previewPageUrl(portal.url, key, { type: 'topics', documentId, expires: Date.now() - 1 }));
    const later = new URL(src);
    later.searchParams.set('expires', String(Number(src.searchParams.get('expires')) + 60_000));
    for (const search of ['', expired.search, later.search]) {
      const api = await fetch(`${portal.url}/api/content/preview/topics/${documentId}${search}`);
      expect(api.status, search).toBe(404);
      expect(await api.text()).not.toContain(draft.title);
    }
    const stranger = await browser.newPage();
    try {
      await stranger.goto(`${portal.url}${src.pathname}`);
      await stranger.getByRole('heading', { level: 1, name: 'This content was not found.' }).waitFor();
      expect(await stranger.locator('body').innerText()).not.toContain(draft.body);
      await stranger.goto(`${portal.url}${src.pathname}${expired.search}`);
      await stranger.getByRole('heading', { level: 1, name: 'This content was not found.' }).waitFor();
      // The signed link works in a browser of its own too (it is the link, not a session, that grants the draft),
      // and opening it leaves nothing behind: the public topic page stays not found for the same browser.
      await stranger.goto(src.href);
      await stranger.getByRole('heading', { level: 1, name: draft.title }).waitFor();
      await stranger.goto(`${portal.url}/topics/wound-care-billing-draft`);
      await stranger.getByRole('heading', { level: 1, name: 'This content was not found.' }).waitFor();
    } finally {
      await stranger.close();
      // Headless Chromium may stop drawing frames for the editor's page once another page has opened and closed:
      // a click that follows then waits for a frame that never comes (CI, stop 47). Bring it back to the front.
      await page.bringToFront();
    }
    // The public answers and pages never carry the draft, even when asked for drafts.
    expect((await portalTopics()).map((t) => t.attributes.title)).not.toContain(draft.title);
    const asked = await fetch(
      `${portal.url}/api/content/topics?filters[slug][$eq]=wound-care-billing-draft&publicationState=preview&populate=*`,
    );
    expect(((await asked.json()) as { data: unknown[] }).data).toEqual([]);
    for (const path of ['/', '/topics/wound-care-billing-draft']) {
      const html = await (await fetch(`${portal.url}${path}`)).text();
      expect(html, path).not.toContain(draft.body);
      expect(html, path).not.toContain(draft.title);
    }
  });

  it('lists the jurisdictions as a column and edits those of an existing topic', async () => {
    await page.goto(`${cms.url}${TOPIC_LIST}`);
    // Strapi's list is a table without header roles: its head row names the column.
    await expect.poll(() => page.locator('thead').innerText()).toMatch(/jurisdictions/i);
    const row = page.getByRole('row').filter({ hasText: 'Cardiac rehab billing' });
    await expect.poll(() => row.innerText()).toContain('J5A, J8B');
    await screenshot(page, 'cms-topic-list');
    await row.getByText('Cardiac rehab billing').click();
    const jurisdictions = page.getByRole('group', { name: /jurisdictions/i });
    await jurisdictions.getByRole('checkbox', { name: /J5 MAC Part A/ }).click();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published document').waitFor();
    await expect
      .poll(async () => (await portalTopics()).find((t) => t.attributes.slug === 'cardiac-rehab-billing')?.attributes)
      .toMatchObject({ jurisdictions: ['J8B'] });
    // Ticking none means every jurisdiction: stored as an empty list, which the portal accepts.
    await jurisdictions.getByRole('checkbox', { name: /J8 MAC Part B/ }).click();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published document').waitFor();
    await expect
      .poll(async () => (await portalTopics()).find((t) => t.attributes.slug === 'cardiac-rehab-billing')?.attributes)
      .toMatchObject({ jurisdictions: [] });
  });

  it('refuses a whitespace-only title with the message on the field, and nothing reaches the site', async () => {
    const before = (await portalTopics()).length;
    await page.goto(`${cms.url}${TOPIC_LIST}/create`);
    await page.getByLabel(/^title/i).fill('   ');
    await page.getByLabel(/^summary/i).fill('A summary');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByText(/Enter a title/)
      .first()
      .waitFor();
    await screenshot(page, 'cms-topic-blank-title');
    expect((await portalTopics()).length).toBe(before);
  });

  it.each([
    ['raw HTML', 'Call us <b>today</b>.', /Remove the HTML "<b>"/],
    ['a javascript: link', 'A [trap](javascript:alert(1)) link.', /would be shown as plain text/],
    ['an image from another host', '![A claim form](https://images.example.org/claim.png)', /not in the media library/],
    ['an image with its file name as alt text', '![claim-flow.svg](/uploads/claim-flow.svg)', /needs alternative text/],
    ['a link without text', 'See [](https://www.cms.gov/).', /has no text to click/],
  ])(
    'refuses a body with %s: the message is on the field and the site keeps the published text',
    async (_, body, message) => {
      const before = (await portalTopics()).find((t) => t.attributes.slug === 'cardiac-rehab-billing');
      await page.goto(`${cms.url}${TOPIC_LIST}`);
      await page
        .getByRole('row')
        .filter({ hasText: 'Cardiac rehab billing' })
        .getByText('Cardiac rehab billing')
        .click();
      const editor = page.locator('.CodeMirror-lines').first();
      await editor.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(`\n\n${body}`);
      await page.getByRole('button', { name: 'Publish' }).click();
      // Under the Body field (the field's error text; the admin also repeats it in a notification).
      await page.locator('[id$="-error"]').filter({ hasText: message }).waitFor();
      await screenshot(page, `cms-topic-refused-${body.length}`);
      const after = (await portalTopics()).find((t) => t.attributes.slug === 'cardiac-rehab-billing');
      expect(after).toEqual(before);
      expect(await (await fetch(`${portal.url}/topics/cardiac-rehab-billing`)).text()).not.toContain(body.slice(0, 12));
    },
  );

  it.each([
    ['home page', '/single-types/api::home-page.home-page', 'Home page', ['Welcome heading', 'Notices']],
    ['license', '/single-types/api::license.license', 'License', ['License text']],
    ['system-use notice', '/single-types/api::system-use-notice.system-use-notice', 'System use notice', []],
    ['topic list', '/collection-types/api::topic.topic', 'Topic', ['Order on the home page', 'Jurisdictions']],
  ])('the %s editor is headed by its name and labels its fields in words', async (name, path, heading, labels) => {
    await page.goto(`${cms.url}/admin/content-manager${path}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    const text = await page.locator('main').innerText();
    for (const label of labels) expect(text.toLowerCase()).toContain(label.toLowerCase());
    // No raw attribute names, no "Set up preview" leading to Strapi's developer documentation.
    expect(text).not.toMatch(/heroTitle|LicenseText|NoticeText|Set up preview/);
    // No announcement of Strapi's own features above the editor.
    expect(await page.getByText(/Introducing the new Media Library/).count()).toBe(0);
    await screenshot(page, `cms-editor-${name.replace(/ /g, '-')}`);
  });

  it('the error message editor explains the code and the message, and says where each message appears', async () => {
    await page.goto(`${cms.url}/admin/content-manager/collection-types/api::error-message.error-message`);
    // The list says where each message appears, beside its code (from the registry's error-code-places.json).
    await expect.poll(() => page.locator('thead').innerText()).toMatch(/where it appears/i);
    const row = page.getByRole('row').filter({ has: page.getByText('Login_Failed', { exact: true }) });
    await expect.poll(() => row.innerText()).toContain(errorCodePlaces.Login_Failed.slice(0, 40));
    await screenshot(page, 'cms-error-message-list');
    await page.getByText('Not_Found', { exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Not_Found' }).waitFor();
    const text = await page.locator('main').innerText();
    expect(text).toContain('Error code');
    expect(text).toContain('What the visitor reads when this error happens');
    // Read-only: it is kept with the portal's code, not by the editors.
    const where = page.getByLabel(/^Where it appears/);
    await expect.poll(() => where.inputValue()).toBe(errorCodePlaces.Not_Found);
    expect(await where.isEditable()).toBe(false);
    await screenshot(page, 'cms-editor-error-message');
  });

  // Last: it moves the topic the tests above read at /topics/cardiac-rehab-billing.
  it("changing a published topic's address keeps the old one: the portal answers 301 to the new one", async () => {
    const moveTo = async (slug: string) => {
      await page.goto(`${cms.url}${TOPIC_LIST}`);
      await page
        .getByRole('row')
        .filter({ hasText: 'Cardiac rehab billing' })
        .getByText('Cardiac rehab billing')
        .click();
      const address = page.getByLabel(/^Address \(slug\)/);
      await address.fill(slug);
      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByText('Published document').waitFor();
    };
    const answerOf = async (path: string) => {
      const res = await fetch(`${portal.url}${path}`, { redirect: 'manual' });
      return { status: res.status, location: res.headers.get('location') };
    };
    await moveTo('cardiac-rehab-claims');
    await expect
      .poll(() => answerOf('/topics/cardiac-rehab-billing'))
      .toEqual({ status: 301, location: '/topics/cardiac-rehab-claims' });
    // A second change: both former addresses go straight to the current one.
    await moveTo('cardiac-rehab-sessions');
    for (const old of ['cardiac-rehab-billing', 'cardiac-rehab-claims'])
      await expect
        .poll(() => answerOf(`/topics/${old}`))
        .toEqual({ status: 301, location: '/topics/cardiac-rehab-sessions' });
    expect((await answerOf('/topics/cardiac-rehab-sessions')).status).toBe(200);
    // A visitor's bookmark or an emailed link: the browser lands on the topic at its new address.
    const visitor = await browser.newPage();
    try {
      await visitor.goto(`${portal.url}/topics/cardiac-rehab-billing`);
      await visitor.getByRole('heading', { level: 1, name: 'Cardiac rehab billing' }).waitFor();
      expect(new URL(visitor.url()).pathname).toBe('/topics/cardiac-rehab-sessions');
    } finally {
      await visitor.close();
    }
    // An address no topic ever had is still not found.
    expect((await answerOf('/topics/cardiac-rehab-nothing')).status).toBe(404);
  });
});
