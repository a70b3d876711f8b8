import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TopicListSchema } from '@portal/contracts/content';
import { dataEnvelope } from '@portal/contracts/http';
import type { Config } from '../../config';

function escapeXml(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );
}

/**
 * `/sitemap.xml` of the home page and every published topic (docs/requirements/public-site.md#every-page), read through the content proxy so it
 * shares its cache and allow-list. When the CMS cannot answer, the sitemap lists the home page only.
 */
export const sitemapRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const base = options.config.publicUrl;
  app.get('/sitemap.xml', async (request, reply) => {
    const urls = [`${base}/`];
    const res = await app.inject({
      method: 'GET',
      url: '/api/content/topics?fields[0]=title&fields[1]=slug&fields[2]=updatedAt&sort=order:asc&pagination[pageSize]=100',
    });
    if (res.statusCode === 200) {
      const parsed = dataEnvelope(TopicListSchema).safeParse(res.json());
      if (parsed.success) {
        for (const topic of parsed.data.data)
          if (topic.attributes.publishedAt !== null)
            urls.push(`${base}/topics/${encodeURIComponent(topic.attributes.slug)}`);
      } else {
        request.log.warn('sitemap: the topics answer did not have the expected shape');
      }
    } else {
      request.log.warn({ status: res.statusCode }, 'sitemap: topics unavailable, listing the home page only');
    }
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...urls.map((u) => `  <url><loc>${escapeXml(u)}</loc></url>`),
      '</urlset>',
      '',
    ].join('\n');
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=300').send(body);
  });
};
