import { DEMO_PASSWORD, DEMO_TOTP_SECRETS } from '../../server/src/modules/auth/demo-accounts';
import { currentTotp } from '../../server/src/identity/mfa/totp';

/**
 * Logs a demo account in through the API and answers its session cookie: the password, then the published TOTP secret
 * (demo.admin.j5), or the first login's authenticator setup, whose secret is kept for the account's next logins.
 */
const enrolledSecrets = new Map<string, string>(Object.entries(DEMO_TOTP_SECRETS));
async function demoSession(base: string, username: string): Promise<string> {
  const headers = { 'content-type': 'application/json', 'x-portal-request': '1', origin: base };
  const post = async (path: string, cookie: string | undefined, body: unknown) => {
    const answer = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...headers, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${username}: ${path} answered ${answer.status}`);
    const payload = (await answer.json()) as { data: { stage?: string; secret?: string } };
    return { cookie: answer.headers.getSetCookie()[0]?.split(';')[0] ?? cookie, data: payload.data };
  };
  const login = await post('/api/auth/login', undefined, { username, password: DEMO_PASSWORD });
  const secret = enrolledSecrets.get(username);
  if (!secret) {
    const started = await post('/api/auth/mfa/enroll', login.cookie, {});
    const key = started.data.secret!.replace(/\s/g, '');
    const confirmed = await post('/api/auth/mfa/enroll', started.cookie, { code: await currentTotp(key) });
    enrolledSecrets.set(username, key);
    return confirmed.cookie!;
  }
  const mfa = await post('/api/auth/mfa', login.cookie, { code: await currentTotp(secret) });
  return mfa.cookie!;
}
/** One login per role, kept for its pages (a few minutes; reading pages does not end it). */
const sessions = new Map<string, Promise<string>>();
export const sessionOf = (base: string, username: string) => {
  if (!sessions.has(username)) sessions.set(username, demoSession(base, username));
  return sessions.get(username)!;
};
