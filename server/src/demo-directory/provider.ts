import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPair, exportJWK, type JWK } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * A real OpenID Connect provider (`oidc-provider`) standing in for the contractor's enterprise directory on a laptop
 * and in tests (docs/requirements/help-desk.md): `npm start` runs it on its own port (cli.ts), the server's and the
 * browser tests start it in-process (`startDemoDirectory`). It signs tokens with its own key, checks PKCE, asks for a
 * username and password on its own sign-in page, and releases `name`, `email` and `groups`. Accounts are demo
 * operators; `setGroups` and `signOutEverywhere` let a test change what the directory says about someone.
 */

export interface DemoDirectoryAccount {
  username: string;
  name: string;
  email: string;
  groups: string[];
  /** Signs in with a second factor (`amr` pwd + otp); false: password only (`amr` pwd). */
  mfa: boolean;
}

/** The demo directory's one password (its accounts are published in the README, like the portal's demo accounts). */
export const DEMO_DIRECTORY_PASSWORD = 'Directory demo 2026';
export const DEMO_DIRECTORY_CLIENT_ID = 'provider-portal-ops';

/** The demo operators: one help desk, one supervisor, one without a console role. */
export const DEMO_OPERATORS: readonly DemoDirectoryAccount[] = [
  {
    username: 'helpdesk',
    name: 'Harper Desk',
    email: 'harper.desk@contractor.example',
    groups: ['help-desk'],
    mfa: true,
  },
  {
    username: 'supervisor',
    name: 'Sam Supervisor',
    email: 'sam.supervisor@contractor.example',
    groups: ['help-desk', 'help-desk-supervisor'],
    mfa: true,
  },
  {
    username: 'norole',
    name: 'Noel Norole',
    email: 'noel.norole@contractor.example',
    groups: ['claims-team'],
    mfa: true,
  },
];

export interface DemoDirectoryOptions {
  /** 0: any free port. */
  port?: number;
  host?: string;
  /** The host name in the issuer URL (default: `host`; `localhost` when `host` is a wildcard). */
  publicHost?: string;
  /** The portal's callback URLs the client may use. */
  redirectUris: string[];
  clientSecret?: string;
  accounts?: readonly DemoDirectoryAccount[];
  /** ID and access token lifetime (seconds). */
  tokenTtlSeconds?: number;
}

export interface DemoDirectory {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's signing key, private part included (tests sign tokens the directory's JWKS verifies). */
  signingKey: JWK;
  /** Changes the groups the directory reports for an account from now on (userinfo, new tokens). */
  setGroups(username: string, groups: string[]): void;
  /** Ends every directory session and revokes every grant (tokens) of an account, as a directory sign-out does. */
  signOutEverywhere(username: string): Promise<void>;
  close(): Promise<void>;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
label{display:block;margin-top:1rem;font-weight:600}input{display:block;width:100%;padding:.5rem;font-size:1rem;margin-top:.25rem;box-sizing:border-box}
button{margin-top:1.5rem;padding:.6rem 1.2rem;font-size:1rem;background:#005ea2;color:#fff;border:0;border-radius:4px}
button:focus,input:focus{outline:3px solid #2491ff;outline-offset:2px}[role=alert]{color:#b50909;margin-top:1rem}</style></head>
<body><main>${body}</main></body></html>`;
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 10_000) req.destroy();
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

/** Starts the demo directory; resolves once it listens. */
export async function startDemoDirectory(options: DemoDirectoryOptions): Promise<DemoDirectory> {
  const host = options.host ?? '127.0.0.1';
  const accounts = new Map((options.accounts ?? DEMO_OPERATORS).map((a) => [a.username, { ...a }]));
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    alg: 'RS256',
    use: 'sig',
    kid: randomBytes(8).toString('hex'),
  };

  // Listen first: the issuer is the address it got.
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://${options.publicHost ?? (host === '0.0.0.0' ? 'localhost' : host)}:${port}`;
  const ttl = options.tokenTtlSeconds ?? 3600;

  const configuration: Configuration = {
    clients: [
      {
        client_id: DEMO_DIRECTORY_CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.redirectUris.map((uri) => new URL('/ops', uri).href),
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { methods: ['S256'], required: () => true },
    jwks: { keys: [signingKey as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub', 'amr'], profile: ['name', 'groups'], email: ['email', 'email_verified'] },
    // The claims of the granted scopes go into the ID token too (as Entra ID, Okta and Keycloak can be set to do).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      Interaction: 600,
      IdToken: ttl,
      AccessToken: ttl,
      Session: 8 * 3600,
      Grant: 8 * 3600,
      RefreshToken: 8 * 3600,
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    findAccount: async (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          name: account.name,
          email: account.email,
          email_verified: true,
          groups: account.groups,
        }),
      };
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = false;
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (details.prompt.name === 'consent') {
      // The portal is the contractor's own client: consent is implied, as a directory's first-party apps have it.
      const grant = details.grantId
        ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant())
        : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
      grant.addOIDCScope(String(details.params.scope ?? 'openid'));
      const grantId = await grant.save();
      const byAccount = grantsByAccount.get(provider) ?? new Map<string, Set<string>>();
      grantsByAccount.set(provider, byAccount);
      const accountId = details.session!.accountId;
      byAccount.set(accountId, (byAccount.get(accountId) ?? new Set()).add(grantId));
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return;
    }
    let error = '';
    if (req.method === 'POST') {
      const form = await readForm(req);
      const account = accounts.get(form.get('username') ?? '');
      if (account && form.get('password') === DEMO_DIRECTORY_PASSWORD) {
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: account.username, amr: account.mfa ? ['pwd', 'otp'] : ['pwd'] } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      error = '<p role="alert">The username or password is not correct.</p>';
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(
      page(
        'Contractor directory (demo): sign in',
        `<h1>Contractor directory (demo)</h1><p>Sign in with your contractor account.</p>${error}
<form method="post" action="/interaction/${escapeHtml(uid)}" autocomplete="off">
<label for="username">Username</label><input id="username" name="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" required>
<button type="submit">Sign in</button></form>`,
      ),
    );
  }

  server.on('request', (req, res) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!match) return void callback(req, res);
    interaction(req, res, match[1]!).catch(() => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('This sign-in expired. Go back to the portal and start again.');
    });
  });

  return {
    issuer,
    clientId: DEMO_DIRECTORY_CLIENT_ID,
    clientSecret,
    signingKey,
    setGroups(username, groups) {
      const account = accounts.get(username);
      if (account) account.groups = [...groups];
    },
    signOutEverywhere: (username) => revokeGrantsOf(provider, username),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Revokes every grant of an account with its tokens, as a sign-out at the directory (or disabling the person) does. */
async function revokeGrantsOf(provider: Provider, accountId: string): Promise<void> {
  const grantIds = grantsByAccount.get(provider)?.get(accountId) ?? new Set<string>();
  for (const grantId of grantIds) {
    for (const model of [provider.AccessToken, provider.RefreshToken, provider.AuthorizationCode])
      await model.revokeByGrantId(grantId);
    const grant = await provider.Grant.find(grantId);
    await grant?.destroy();
  }
  grantsByAccount.get(provider)?.delete(accountId);
}

const grantsByAccount = new WeakMap<Provider, Map<string, Set<string>>>();
