import type { FastifyInstance } from 'fastify';
import { OPS_ROUTES } from '@portal/contracts/ops';
import { portalHeaders } from '../helpers';
import { DEMO_DIRECTORY_PASSWORD, signInAtDirectory } from './directory';

/**
 * A console (help-desk) client of a test app (docs/requirements/help-desk.md): signs in through the real demo
 * directory (`./directory.ts`) the app is configured with, and calls `/api/ops` with the console cookie.
 */

export interface OpsClient {
  /** The `ops_session` cookie's value; undefined once signed out or refused. */
  cookie: string | undefined;
  ip: string;
}

/**
 * The whole sign-in: the portal's start (its redirect and sign-in cookie), the directory's page, the portal's
 * callback. Answers the client and where the callback sent the browser (`/ops…`).
 */
export async function signInOperator(
  app: FastifyInstance,
  username: string,
  options: { password?: string; returnTo?: string; ip?: string; signInCookie?: string } = {},
): Promise<{ client: OpsClient; location: string; sessionCookiePaths: (string | undefined)[] }> {
  const ip = options.ip ?? '127.0.0.1';
  const start = await app.inject({
    method: 'GET',
    url: `${OPS_ROUTES.signIn}${options.returnTo ? `?returnTo=${encodeURIComponent(options.returnTo)}` : ''}`,
    remoteAddress: ip,
  });
  if (start.statusCode !== 302) throw new Error(`sign-in start answered ${start.statusCode}: ${start.body}`);
  const signInCookie = options.signInCookie ?? start.cookies.find((c) => c.name === 'ops_sign_in')!.value;
  const callback = await signInAtDirectory(
    start.headers.location!,
    username,
    options.password ?? DEMO_DIRECTORY_PASSWORD,
  );
  const back = await app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    remoteAddress: ip,
    headers: { cookie: `ops_sign_in=${signInCookie}` },
  });
  if (back.statusCode !== 302) throw new Error(`callback answered ${back.statusCode}: ${back.body}`);
  const session = back.cookies.filter((c) => c.name === 'ops_session');
  return {
    client: { cookie: session[0]?.value || undefined, ip },
    location: back.headers.location!,
    // The paths the console's cookie was set on (its API's and its pages', docs/decisions/0088).
    sessionCookiePaths: session.map((c) => c.path as string | undefined),
  };
}

/** A console call with the client's cookie (and the portal's CSRF header). */
export async function callOps(
  app: FastifyInstance,
  client: OpsClient,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
  extraCookie = '',
) {
  const cookies = [client.cookie ? `ops_session=${client.cookie}` : '', extraCookie].filter(Boolean).join('; ');
  const res = await app.inject({
    method,
    url,
    remoteAddress: client.ip,
    headers: { ...portalHeaders, ...(cookies ? { cookie: cookies } : {}) },
    ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
  });
  // Set (or cleared) on the console API's path and its pages'; the API's is the one this client sends.
  const set = res.cookies.find((c) => c.name === 'ops_session');
  if (set) client.cookie = set.value || undefined;
  return res;
}
