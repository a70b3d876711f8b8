import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SITE_DESCRIPTION, SITE_NAME } from '../use-document-title';

describe('the site-wide page head', () => {
  it("is the browser-rendered shell's (index.html) too, so a page without its own description falls back to the same text", () => {
    const indexHtml = readFileSync(join(__dirname, '../../../index.html'), 'utf8').replace(/\s+/g, ' ');
    expect(indexHtml).toContain(`content="${SITE_DESCRIPTION}"`);
    expect(indexHtml).toContain(`<title>${SITE_NAME}</title>`);
  });
});
