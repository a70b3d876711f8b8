import {
  DEMO_DIRECTORY_PASSWORD,
  startDemoDirectory,
  type DemoDirectory,
  type DemoDirectoryAccount,
} from '../../src/demo-directory/provider';

/**
 * The demo enterprise directory for tests (docs/requirements/help-desk.md): a real OpenID provider on a free port
 * (`startDemoDirectory`), and a browser-less walk through its sign-in page. The browser tests (e2e/) start the same
 * provider with `startTestDirectory` and drive its page with Chromium instead.
 */

export { DEMO_DIRECTORY_PASSWORD, DEMO_OPERATORS } from '../../src/demo-directory/provider';
export type { DemoDirectory, DemoDirectoryAccount };

/** A demo directory whose client may come back to `portalUrl`'s callback (and `extraRedirects`). */
export function startTestDirectory(
  portalUrl: string,
  options: { accounts?: readonly DemoDirectoryAccount[]; tokenTtlSeconds?: number } = {},
): Promise<DemoDirectory> {
  return startDemoDirectory({
    port: 0,
    redirectUris: [`${portalUrl.replace(/\/+$/, '')}/api/ops/auth/callback`],
    ...options,
  });
}

/** The portal's settings (environment names) for a directory, as `npm start` sets them for its demo one. */
export function directoryEnv(directory: DemoDirectory, extra: Record<string, string> = {}): Record<string, string> {
  return {
    OIDC_ISSUER: directory.issuer,
    OIDC_CLIENT_ID: directory.clientId,
    OIDC_CLIENT_SECRET: directory.clientSecret,
    OIDC_ALLOW_HTTP: 'true',
    OIDC_REQUIRE_MFA: 'true',
    ...extra,
  };
}

/** A cookie jar for one origin at a time: enough for the directory's interaction cookies. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Signs in at the directory from its authorization URL without a browser: follows its redirects, fills its sign-in
 * form with `username` and `password`, and answers the URL it finally sends the browser to (the portal's callback,
 * with `code`, `state` and `iss`). A refused password answers the form page's URL (no redirect to the portal).
 */
export async function signInAtDirectory(
  authorizationUrl: string,
  username: string,
  password = DEMO_DIRECTORY_PASSWORD,
  stopAt = '/api/ops/auth/callback',
): Promise<URL> {
  const jar = new Jar();
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  let posted = false;
  for (let step = 0; step < 20; step++) {
    if (url.origin !== origin || url.pathname.endsWith(stopAt)) return url;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url);
      continue;
    }
    const html = await res.text();
    if (res.status !== 200 || posted) return url;
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no sign-in form at ${url.href}: ${res.status}`);
    const post = await fetch(new URL(action, url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password }).toString(),
    });
    jar.take(post);
    posted = true;
    if (post.status >= 300 && post.status < 400) url = new URL(post.headers.get('location')!, url);
    else return url;
  }
  throw new Error('the directory sign-in did not end');
}
