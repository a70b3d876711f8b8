import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { errorDefaultMessages, type ErrorCode } from '@portal/contracts/errors';
import { errorsOfGuard, mergeRouteErrors, type RouteAnswers, type RouteErrors } from './route-errors';

/** The OpenAPI 3.1 document and the reference page (docs/decisions/0033-openapi-metrics-deployment.md). */
export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';

/** Routes in the document: the API and the health checks a load balancer calls. Pages and assets are not API. */
export function isDocumentedPath(url: string): boolean {
  return (
    (url.startsWith('/api/') && url !== OPENAPI_PATH && !url.startsWith(API_DOCS_PATH)) ||
    url === '/healthz' ||
    url === '/readyz'
  );
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The errors every documented route shares, worked out from its declaration: a request schema can fail validation
 * (and a body can be unreadable, too large or of another type), a state change without the portal's header or from
 * another origin is refused, a rate-limited route answers 429, and anything can fail with 500 or 503.
 */
export function sharedRouteErrors(route: Pick<RouteOptions, 'method' | 'schema' | 'config'>): RouteErrors {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const methods = [route.method].flat().map((m) => m.toUpperCase());
  const config = (route.config ?? {}) as { csrf?: boolean; rateLimit?: unknown };
  const errors: Record<number, ErrorCode[]> = {
    500: ['Generic_Error_For_Services'],
    503: ['Service_Unavailable'],
  };
  if (schema.body || schema.querystring || schema.params) errors[400] = ['Validation_Failed'];
  if (schema.body) {
    errors[400] = ['Validation_Failed', 'Invalid_Json'];
    errors[413] = ['Payload_Too_Large'];
    errors[415] = ['Unsupported_Media_Type'];
  }
  if (methods.some((m) => !SAFE_METHODS.has(m)) && config.csrf !== false) errors[403] = ['Csrf_Rejected'];
  if (config.rateLimit) errors[429] = ['Too_Many_Requests'];
  return errors;
}

/** Every error a route can answer: shared ones, its guards' (session, re-authentication) and its own `config.errors`. */
export function routeErrors(route: Pick<RouteOptions, 'method' | 'schema' | 'config'> & Partial<RouteOptions>) {
  const guards = [route.onRequest, route.preValidation, route.preHandler].flat().filter(Boolean);
  return mergeRouteErrors(
    sharedRouteErrors(route),
    ...guards.map(errorsOfGuard),
    (route.config as { errors?: RouteErrors } | undefined)?.errors,
  );
}

/** The JSON Schema of an error answer listing its possible codes (the envelope of docs/requirements/api.md#response-envelope). */
function errorResponseSchema(codes: readonly ErrorCode[]) {
  return {
    description: codes.map((code) => `\`${code}\`: ${errorDefaultMessages[code]}`).join('\n\n'),
    type: 'object',
    required: ['errorMessage'],
    properties: {
      errorMessage: { type: 'string', enum: [...codes] },
      fieldErrors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      requestId: { type: 'string' },
    },
    'x-error-codes': [...codes],
  };
}

/**
 * Generates the OpenAPI 3.1 document from the routes' zod schemas (fastify-type-provider-zod's transform, which uses
 * zod 4's JSON Schema output) plus each route's error answers. Registered before the routes: @fastify/swagger
 * collects them as they are declared. With `ui`, the Swagger UI page at /api/docs (its files served from this origin).
 */
export async function registerOpenApi(app: FastifyInstance, options: { publicUrl: string; ui: boolean }) {
  const zodTransform = createJsonSchemaTransform({ skipList: [] });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Medicare Provider Portal API',
        version: '1',
        description:
          'The provider portal API (J5 and J8, Part A and Part B). Success answers are `{ data }`; every other answer is `{ errorMessage, fieldErrors?, requestId? }` with an error code listed per route. State changes need the `X-Portal-Request: 1` header from the portal origin (CSRF).',
      },
      servers: [{ url: options.publicUrl }],
    },
    hideUntagged: false,
    transform(document) {
      const { route, url } = document;
      if (!isDocumentedPath(url)) return { schema: { ...(route.schema ?? {}), hide: true }, url };
      const result = zodTransform(document);
      const schema = { ...(result.schema as Record<string, unknown>) };
      const response = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
      const answers = (route.config as { answers?: RouteAnswers } | undefined)?.answers ?? {};
      for (const [status, answer] of Object.entries(answers))
        if (answer && !(status in response))
          response[status] = answer.contentType
            ? { description: answer.description, content: { [answer.contentType]: { schema: { type: 'string' } } } }
            : { description: answer.description, type: 'null' };
      for (const [status, codes] of Object.entries(routeErrors(route)))
        if (!(status in response)) response[status] = errorResponseSchema(codes);
      schema.response = response;
      schema.tags ??= [tagOf(url)];
      return { schema, url: result.url };
    },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
  if (options.ui) {
    await app.register(fastifySwaggerUi, {
      routePrefix: API_DOCS_PATH,
      // Served from this origin under the portal's CSP: no validator badge (an outside image), no CDN. The document
      // comes from OPENAPI_PATH (`urls` wins over the plugin's own `./json`, which answered a compressed request with
      // an empty body, so Chromium showed "No API definition provided.").
      uiConfig: { deepLinking: true, urls: [{ url: OPENAPI_PATH, name: 'Medicare Provider Portal API' }] },
      validatorUrl: false,
      staticCSP: false,
    });
  }
}

/** Groups operations by the first path segment after /api (`/api/auth/login` → `auth`). */
function tagOf(url: string): string {
  if (!url.startsWith('/api/')) return 'health';
  return url.split('/')[2] ?? 'api';
}
