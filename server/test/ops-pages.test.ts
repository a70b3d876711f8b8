import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPS_ROUTES } from '@portal/contracts/ops';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, opsSessions } from '../src/db/schema';
import { hashSessionId } from '../src/identity/sessions/store';
import { buildTestApp, testClock, testConfig } from './helpers';
import { createPerson, sessionOf } from './factories';
import { directoryEnv, startTestDirectory, type DemoDirectory } from './support/directory';
import { callOps, signInOperator } from './support/operators';

/**
 * The help-desk console's pages drawn by the server for the console session of the request (docs/decisions/0088),
 * with a stand-in for the web's server entry that draws what the server handed it: the console's own API answers,
 * read in-process with the page request's cookies (the same session lookup as every console call). The real entry
 * and its hydration are exercised in e2e/portal-pages-roles.test.ts and e2e/help-desk-console.test.ts.
 */

// The entry the web build would produce (web/dist-ssr/entry-server.js), reduced to what the server calls.
const FAKE_ENTRY = `
export function configureServerRendering() {}
export function pageForConsole(path) { return path === '/ops' || path.startsWith('/ops/'); }
export function pageVariant(request) { return request.path.startsWith('/ops') ? undefined : request.path; }
export async function renderPage(request) {
  if (!request.path.startsWith('/ops')) return { status: 200, head: '', root: '<h1>shared</h1>', state: '' };
  const session = await request.readApi('/api/ops/session');
  let root;
  if (session.status === 200) {
    root = '<h1>Find a person</h1><p>signed in as ' + session.payload.data.name + '</p>';
    const person = request.path.match(/^\\/ops\\/people\\/([^/?]+)/);
    if (person) {
      const read = await request.readApi('/api/ops/people/' + person[1]);
      root += '<p>person ' + read.status + ' ' + (read.payload.data ? read.payload.data.username : read.payload.errorMessage) + '</p>';
    }
  } else root = '<h1>Help-desk console</h1><p>sign in: ' + session.status + ' ' + session.payload.errorMessage + '</p>';
  return { status: 200, head: '<title>console</title>', root, state: '' };
}
`;

describe('help-desk console pages drawn by the server', () => {
  // The directory's tokens carry real times: the app's clock starts at the real time and only moves forward.
  const clock = testClock(Date.now());
  let app: FastifyInstance;
  let directory: DemoDirectory;
  const webRoot = mkdtempSync(join(tmpdir(), 'portal-test-ops-web-'));

  beforeAll(async () => {
    mkdirSync(join(webRoot, 'dist', 'assets'), { recursive: true });
    mkdirSync(join(webRoot, 'dist-ssr'), { recursive: true });
    writeFileSync(
      join(webRoot, 'dist', 'index.html'),
      '<!doctype html><title>Portal</title><!--app-head--><div id="root"><!--app-root--></div><!--app-state-->',
    );
    writeFileSync(join(webRoot, 'dist-ssr', 'entry-server.js'), FAKE_ENTRY);
    directory = await startTestDirectory('http://localhost:3000');
    ({ app } = await buildTestApp({
      clock: clock.now,
      config: testConfig({ ...directoryEnv(directory), WEB_DIST_DIR: join(webRoot, 'dist') }),
    }));
  });
  afterAll(async () => {
    await app?.close();
    await directory?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const page = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const setCookies = (res: Awaited<ReturnType<typeof page>>) =>
    res.cookies.filter((c) => c.name === 'ops_session').map((c) => ({ path: c.path, value: c.value }));

  it('sets the console cookie on the console API and pages only, and clears both at sign-out', async () => {
    const { client, sessionCookiePaths } = await signInOperator(app, 'helpdesk');
    expect(sessionCookiePaths).toEqual(['/api/ops', '/ops']);
    const out = await callOps(app, client, 'POST', OPS_ROUTES.signOut);
    expect(out.statusCode).toBe(200);
    expect(setCookies(out)).toEqual([
      { path: '/api/ops', value: '' },
      { path: '/ops', value: '' },
    ]);
  });

  it('without a console cookie: the sign-in screen, never stored', async () => {
    const res = await page('/ops');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Help-desk console</h1><p>sign in: 401 Ops_Sign_In_Required</p>');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.vary).toBe('cookie');
    // Nothing set: the API's 401 only clears (as it answers the browser's own call).
    expect(setCookies(res).every((c) => c.value === '')).toBe(true);
  });

  it('with a valid console session: the signed-in page with its data, for that operator alone', async () => {
    const person = await createPerson(app);
    const desk = (await signInOperator(app, 'helpdesk')).client;
    const boss = (await signInOperator(app, 'supervisor')).client;
    const first = await page(`/ops/people/${person.id}`, `ops_session=${desk.cookie}`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-store');
    expect(first.body).toContain(`signed in as Harper Desk</p><p>person 200 ${person.username}</p>`);
    // The read is the console's own route: audited with the operator, as the browser's call would be.
    // (Declarative audit events are written as the answer ends.)
    await vi.waitFor(async () => {
      const views = await app.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'ops.person.view'), eq(auditEvents.target, person.id)));
      expect(views).toHaveLength(1);
      expect(views[0]!.actor).toMatch(/^operator:/);
    });
    // Never shared: the next operator's page is drawn for them.
    const second = await page('/ops', `ops_session=${boss.cookie}`);
    expect(second.body).toContain('signed in as Sam Supervisor');
    expect(second.body).not.toContain('Harper Desk');
    expect((await page('/ops', `ops_session=${desk.cookie}`)).body).toContain('signed in as Harper Desk');
  });

  it('with an expired session: the sign-in screen saying it ended, and the cookie cleared on both paths', async () => {
    const { client } = await signInOperator(app, 'helpdesk');
    clock.advance(15 * 60_000 + 1000);
    const res = await page('/ops/people/x', `ops_session=${client.cookie}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain('sign in: 401 Ops_Session_Expired');
    expect(setCookies(res)).toEqual([
      { path: '/api/ops', value: '' },
      { path: '/ops', value: '' },
    ]);
    const rows = await app.database.db
      .select()
      .from(opsSessions)
      .where(eq(opsSessions.idHash, hashSessionId(client.cookie!)));
    expect(rows).toEqual([]);
  });

  it('with a revoked session (signed out elsewhere): the sign-in screen, and the cookie cleared', async () => {
    const { client } = await signInOperator(app, 'helpdesk');
    const cookie = client.cookie!;
    await callOps(app, client, 'POST', OPS_ROUTES.signOut);
    const res = await page('/ops', `ops_session=${cookie}`);
    expect(res.body).toContain('sign in: 401 Ops_Sign_In_Required');
    expect(setCookies(res).map((c) => c.path)).toEqual(['/api/ops', '/ops']);
    expect(res.body).not.toContain('signed in as');
  });

  it('with a portal session only: 404, as if the console did not exist', async () => {
    const person = await createPerson(app);
    const provider = await sessionOf(app, clock, person.id);
    for (const url of ['/ops', '/ops/people/abc']) {
      const res = await page(url, `portal_session=${provider.cookie}`);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('console');
    }
  });

  it('never draws a portal page with console data, and keeps portal pages in the shared page cache', async () => {
    const { client } = await signInOperator(app, 'helpdesk');
    const res = await page('/topics/contact', `ops_session=${client.cookie}`);
    expect(res.body).toContain('<h1>shared</h1>');
    expect(res.body).not.toContain('Harper Desk');
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });
});
