import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { portalSuite } from './support/portal-suite';

/**
 * The API reference (docs/architecture.md, `/api/docs`) as a browser shows it (issue 38 item 14): the Swagger UI page
 * loads the portal's OpenAPI document and lists its operations, under the portal's CSP, with nothing from elsewhere.
 */
describe('API reference', () => {
  const portal = portalSuite();

  it('/api/docs lists the operations of the OpenAPI document', async () => {
    // Swagger UI is a developer's tool served as is, not a portal page: a plain page, without the portal pages' axe
    // check on leaving (its own markup has known axe findings), records what it logs and asks for.
    const context = await portal.browser.newContext({ baseURL: portal.url, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) logged.push(`${response.status()} ${response.url()}`);
    });
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(portal.url)) outside.push(request.url());
    });
    await page.goto('/api/docs');
    // Swagger UI breaks long paths with zero-width spaces: compared without them.
    const operations = page.locator('.opblock-summary-path');
    await operations
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(() => undefined);
    await screenshot(page, 'api-docs-1440');
    expect(logged, 'errors the page logged').toEqual([]);
    expect(await page.getByText('No API definition provided.').count()).toBe(0);
    const paths = (await operations.allInnerTexts()).map((text) => text.replace(/[\u200b\s]/g, ''));
    expect(paths).toContain('/api/auth/login');
    expect(paths.length).toBeGreaterThan(20);
    expect(outside).toEqual([]);
    await context.close();
  }, 120_000);
});
