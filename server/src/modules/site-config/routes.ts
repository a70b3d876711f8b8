import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SITE_CONFIG_GLOBAL, SITE_CONFIG_PATH } from '@portal/contracts/site-config';
import type { Config } from '../../config';
import { siteConfigScript } from './service';

/** `GET /api/site-config.js`: the browser-visible settings (service.ts), made once at start. */
export const siteConfigRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const body = siteConfigScript(options.config);
  // A script, not JSON, so no JSON response schema: its shape is SiteConfig, checked by the compiler.
  app.get(
    SITE_CONFIG_PATH,
    {
      schema: { summary: 'The browser-visible settings (SiteConfig) as a classic script index.html loads' },
      config: {
        answers: { 200: { description: `window.${SITE_CONFIG_GLOBAL} = {…};`, contentType: 'text/javascript' } },
      },
    },
    async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(body),
  );
};
