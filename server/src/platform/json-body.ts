import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PortalError } from './portal-error';

/** True when a string anywhere in the parsed body holds a NUL character. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
  return false;
}

/**
 * JSON bodies are parsed by Fastify's own parser (prototype-poisoning checks kept), then refused with 400
 * `Validation_Failed` when any string holds a NUL: PostgreSQL text cannot store one, so a NUL that a route's schema let
 * through would end as a database error and a 500 (docs/requirements/api.md#request-rules). Once here, no route has
 * to remember it.
 */
export const jsonBodyPlugin = fp(async (app: FastifyInstance) => {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      if (holdsNul(value)) return done(new PortalError(400, 'Validation_Failed'), undefined);
      done(null, value);
    });
  });
});
