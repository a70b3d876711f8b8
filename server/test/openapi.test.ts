import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RouteOptions } from 'fastify';
import { errorCodes } from '@portal/contracts/errors';
import { describe, expect, it } from 'vitest';
import { API_DOCS_PATH, isDocumentedPath, OPENAPI_PATH } from '../src/platform/openapi';
import { buildTestApp, testConfig } from './helpers';

const serverSrc = fileURLToPath(new URL('../src/', import.meta.url));

interface Operation {
  requestBody?: { content: Record<string, { schema: object }> };
  parameters?: { in: string; name: string }[];
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** Fastify's `/a/:id` and `/a/*` as OpenAPI writes them. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}');
}

/** Error codes a route documents, from the `x-error-codes` of its error answers. */
function documentedCodes(operation: Operation): string[] {
  return Object.entries(operation.responses)
    .filter(([status]) => Number(status) >= 400)
    .flatMap(([, r]) => (r.content?.['application/json']?.schema['x-error-codes'] as string[] | undefined) ?? []);
}

/**
 * The codes a route answers as `errorMessage`: those the server's code names (route-level errors). The rest of the
 * registry are field codes (the `fieldErrors` of `Validation_Failed`, named in the contracts' schemas) or the SPA's
 * own. Field codes the server names too are listed here with the reason.
 */
const FIELD_CODES_NAMED_BY_THE_SERVER = new Set([
  'Password_Reused',
  // The console's sign-in refusals travel in the callback's redirect (`/ops?signIn=<code>`), never as errorMessage.
  'Ops_Sign_In_Failed',
  'Ops_No_Role',
  'Ops_Mfa_Required',
]);

function codesNamedByTheServer(): string[] {
  const sources = readdirSync(serverSrc, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !/route-errors|openapi/.test(f))
    .map((f) => readFileSync(join(serverSrc, f), 'utf8'))
    .join('\n');
  return errorCodes.filter((code) => sources.includes(`'${code}'`) && !FIELD_CODES_NAMED_BY_THE_SERVER.has(code));
}

describe('OpenAPI document', () => {
  it('documents every API route with its request schema, its answers and its error codes', async () => {
    const routes: RouteOptions[] = [];
    const { app } = await buildTestApp({ onRoute: (route) => routes.push(route) });
    try {
      const res = await app.inject({ method: 'GET', url: OPENAPI_PATH });
      expect(res.statusCode).toBe(200);
      const doc = res.json<OpenApiDocument>();
      expect(doc.openapi).toBe('3.1.0');

      const api = routes.filter((r) => isDocumentedPath(r.url));
      expect(api.length).toBeGreaterThan(40);
      const problems: string[] = [];
      for (const route of api) {
        for (const method of [route.method].flat()) {
          if (method === 'HEAD') continue;
          const name = `${method} ${route.url}`;
          const schema = route.schema as Record<string, unknown> | undefined;
          if (!schema) {
            problems.push(`${name}: no schema`);
            continue;
          }
          const operation = doc.paths[openApiPath(route.url)]?.[method.toLowerCase()];
          if (!operation) {
            problems.push(`${name}: missing from the document`);
            continue;
          }
          const successes = Object.keys(operation.responses).filter((s) => /^[23]/.test(s));
          // A route that only refuses (405 for other methods on a read-only path) has no success answer.
          if (!successes.length && !operation.responses['405']) problems.push(`${name}: no success answer documented`);
          if (schema.body && !operation.requestBody) problems.push(`${name}: request body not documented`);
          if (schema.querystring && !operation.parameters?.some((p) => p.in === 'query'))
            problems.push(`${name}: query not documented`);
          const codes = documentedCodes(operation);
          if (!codes.includes('Generic_Error_For_Services')) problems.push(`${name}: error answers not documented`);
          if (method !== 'GET' && schema.body && !codes.includes('Validation_Failed'))
            problems.push(`${name}: Validation_Failed not documented`);
        }
      }
      expect(problems).toEqual([]);

      // Every code the server answers is declared on some documented route (config.errors or a tagged guard).
      const answered = new Set(Object.values(doc.paths).flatMap((p) => Object.values(p).flatMap(documentedCodes)));
      const named = codesNamedByTheServer();
      expect(named.length).toBeGreaterThan(30);
      const undocumented = named.filter((code) => !answered.has(code));
      expect(undocumented).toEqual([]);

      // Pages, assets and the docs themselves stay out.
      expect(Object.keys(doc.paths).filter((p) => !isDocumentedPath(p.replace(/\{[^}]+\}/g, 'x')))).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('the login route documents its body, its answer, the shared errors and its own', async () => {
    const { app } = await buildTestApp();
    try {
      const doc = (await app.inject({ method: 'GET', url: OPENAPI_PATH })).json<OpenApiDocument>();
      const login = doc.paths['/api/auth/login']!.post!;
      expect(login.requestBody!.content['application/json']!.schema).toMatchObject({
        type: 'object',
        properties: { username: { type: 'string' }, password: { type: 'string' } },
      });
      expect(login.responses['200']!.content!['application/json']!.schema).toMatchObject({ type: 'object' });
      const byStatus = Object.fromEntries(
        Object.entries(login.responses).map(([s, r]) => [
          s,
          r.content?.['application/json']?.schema['x-error-codes'] ?? null,
        ]),
      );
      expect(byStatus).toMatchObject({
        '400': expect.arrayContaining(['Validation_Failed', 'Invalid_Json']),
        '401': expect.arrayContaining(['Login_Failed']),
        '403': [
          'Csrf_Rejected',
          'Email_Not_Verified',
          'Account_Locked',
          'Account_Locked_Help_Desk',
          'Account_Disabled',
          'Account_Inactive',
        ],
        '429': ['Too_Many_Requests'],
        '500': ['Generic_Error_For_Services'],
      });
      // A guard documents its errors on every route using it.
      const account = doc.paths['/api/account']!.get!;
      expect(account.responses['401']!.content!['application/json']!.schema['x-error-codes']).toEqual(
        expect.arrayContaining(['Not_Logged_In', 'Session_Expired']),
      );
    } finally {
      await app.close();
    }
  });
});

describe('API reference page', () => {
  it('is served from this origin under the portal CSP: every script and stylesheet it loads is local and answers 200', async () => {
    const { app } = await buildTestApp();
    try {
      const page = await app.inject({ method: 'GET', url: `${API_DOCS_PATH}/` });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-eval');
      const html = page.body;
      // No inline script: the CSP allows none.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>\s*\S/);
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(assets.length).toBeGreaterThanOrEqual(4);
      for (const asset of assets) {
        expect(asset).not.toMatch(/^(https?:)?\/\//);
        const url = new URL(asset, `http://localhost${API_DOCS_PATH}/`).pathname;
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body.length, url).toBeGreaterThan(0);
        expect(res.body, url).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs|fonts\.googleapis)/);
      }
    } finally {
      await app.close();
    }
  });

  it('the page loads the OpenAPI document from /api/openapi.json, which answers it compressed as browsers ask', async () => {
    const { app } = await buildTestApp();
    try {
      // Swagger UI's own /api/docs/json answered a compressed request with an empty body: Chromium showed "No API
      // definition provided." The page names the portal's document instead.
      const initializer = await app.inject({ method: 'GET', url: `${API_DOCS_PATH}/static/swagger-initializer.js` });
      expect(initializer.body).toContain(OPENAPI_PATH);
      const res = await app.inject({
        method: 'GET',
        url: OPENAPI_PATH,
        headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
      });
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.rawPayload.length).toBeGreaterThan(1000);
    } finally {
      await app.close();
    }
  });

  it('is off in production unless API_DOCS=true', async () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      ENCRYPTION_KEY: 'a'.repeat(64),
    };
    expect(testConfig(production).apiDocs).toBe(false);
    expect(testConfig({ ...production, API_DOCS: 'true' }).apiDocs).toBe(true);
    const { app } = await buildTestApp({ config: testConfig({ API_DOCS: 'false' }) });
    try {
      expect((await app.inject({ method: 'GET', url: OPENAPI_PATH })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: `${API_DOCS_PATH}/` })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
