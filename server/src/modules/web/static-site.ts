import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PortalError } from '../../platform/portal-error';
import { createPageSender } from './server-render';

/** Text files the web build writes `.br`/`.gz` beside (web/scripts/precompress.mjs): their answer varies with Accept-Encoding. */
const PRECOMPRESSED = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest)(?:\.br|\.gz)?$/;

/**
 * Serves the built SPA: hashed files under /assets/ are cached for a year (their names change with their
 * content), everything else must be revalidated. Unknown non-API GETs get the server-rendered public page
 * (server-render.ts) or else index.html so the router can render them (including its not-found page); unknown
 * /api/* paths get the JSON 404.
 */
export const staticSitePlugin = fp(
  async (app: FastifyInstance, options: { webDistDir: string; publicUrl: string; preview: boolean }) => {
    const hasBuild = existsSync(join(options.webDistDir, 'index.html'));
    if (hasBuild) {
      await app.register(fastifyStatic, {
        root: options.webDistDir,
        wildcard: false,
        index: false,
        cacheControl: false,
        preCompressed: true,
        setHeaders(res, path) {
          res.setHeader(
            'cache-control',
            path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
          if (PRECOMPRESSED.test(path)) res.setHeader('vary', 'accept-encoding');
        },
      });
    } else {
      app.log.warn(
        { webDistDir: options.webDistDir },
        'the web app is not built; run `npm run build` (npm start does it)',
      );
    }
    const sendPage = hasBuild ? await createPageSender(app, options) : undefined;

    app.setNotFoundHandler(async (request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      if (path === '/api' || path.startsWith('/api/')) throw new PortalError(404, 'Not_Found');
      const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !/\.[a-z0-9]{1,8}$/i.test(path);
      if (!wantsPage) throw new PortalError(404, 'Not_Found');
      if (!hasBuild)
        return reply
          .code(503)
          .type('text/plain')
          .send('The web app has not been built yet. Run `npm run build`, then reload.');
      if (sendPage && (await sendPage(request, reply))) return reply;
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
);
