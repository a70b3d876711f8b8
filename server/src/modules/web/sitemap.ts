import { TopicListSchema } from '@portal/contracts/content';
import { dataEnvelope } from '@portal/contracts/http';

function escapeXml(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );
}

/** Where the sitemap reads the topics: the content proxy, so it shares its cache and allow-list. */
export const SITEMAP_TOPICS_URL =
  '/api/content/topics?fields[0]=title&fields[1]=slug&fields[2]=updatedAt&sort=order:asc&pagination[pageSize]=100';

/**
 * `/sitemap.xml` of the home page and every published topic (docs/requirements/public-site.md#every-page), from the
 * proxy's answer to SITEMAP_TOPICS_URL, or undefined when the CMS could not answer. With no topics (undefined, or an
 * answer of the wrong shape, which `problem` reports) the sitemap lists the home page only.
 */
export function sitemapXml(
  base: string,
  topicsAnswer: unknown,
): { xml: string; problem?: 'unexpected_shape' | 'unavailable' } {
  const urls = [`${base}/`];
  let problem: 'unexpected_shape' | 'unavailable' | undefined;
  if (topicsAnswer === undefined) problem = 'unavailable';
  else {
    const parsed = dataEnvelope(TopicListSchema).safeParse(topicsAnswer);
    if (parsed.success) {
      for (const topic of parsed.data.data)
        if (topic.attributes.publishedAt !== null)
          urls.push(`${base}/topics/${encodeURIComponent(topic.attributes.slug)}`);
    } else problem = 'unexpected_shape';
  }
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((u) => `  <url><loc>${escapeXml(u)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
  return problem ? { xml, problem } : { xml };
}
