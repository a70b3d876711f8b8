import type { TopicEntry } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { topicsFor } from '../get-topics';

const topic = (
  slug: string,
  jurisdictions: string[] | null,
  publishedAt: string | null = '2026-11-01T00:00:00.000Z',
): TopicEntry => ({
  id: slug.length,
  attributes: { title: slug, slug, jurisdictions, publishedAt },
});

describe('topicsFor', () => {
  const partB = topic('part-b-claims', ['J5B', 'J8B']);
  const everyone = topic('appeals', ['J5A', 'J5B', 'J8A', 'J8B']);
  const unlisted = topic('contact', null);
  const emptyList = topic('privacy', []);
  const draft = topic('draft', ['J8A'], null);
  const all = [partB, everyone, unlisted, emptyList, draft];

  it('keeps the topics listed for the jurisdiction and those that list none', () => {
    expect(topicsFor(all, 'J8A').map((t) => t.attributes.slug)).toEqual(['appeals', 'contact', 'privacy']);
    expect(topicsFor(all, 'J5B').map((t) => t.attributes.slug)).toEqual([
      'part-b-claims',
      'appeals',
      'contact',
      'privacy',
    ]);
  });

  it('keeps every published topic before a jurisdiction is chosen, and never an unpublished one', () => {
    expect(topicsFor(all, '').map((t) => t.attributes.slug)).toEqual([
      'part-b-claims',
      'appeals',
      'contact',
      'privacy',
    ]);
  });
});
