import type { OperatorRole } from '@portal/contracts/ops';
import * as oidc from 'openid-client';
import type { Config } from '../../config';
import { PortalError } from '../../platform/portal-error';

/**
 * The portal as an OpenID Connect client of the contractor's enterprise directory (docs/requirements/help-desk.md,
 * docs/decisions/0074-help-desk-console.md), through `openid-client`: authorization code with PKCE; the ID token's
 * issuer, audience, nonce, expiry and signature are checked by the library (non-repudiation checks on: the signature
 * is verified against the directory's JWKS even over TLS); the MFA and role rules are the portal's, below.
 */

export type DirectorySettings = NonNullable<Config['ops']['oidc']>;

/** What a sign-in or a re-check learnt about the person. */
export interface DirectoryIdentity {
  subject: string;
  name: string;
  email: string;
  roles: OperatorRole[];
}

export interface DirectoryTokens {
  accessToken: string;
  refreshToken: string | null;
  idToken: string | null;
}

/** The values a sign-in carries from its start to the callback (kept encrypted in the browser's sign-in cookie). */
export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Per issuer: the discovered metadata and the JWKS cache, shared by every Configuration made for a request. */
const discovered = new Map<string, Promise<oidc.ServerMetadata>>();
const jwksCaches = new Map<string, oidc.ExportedJWKSCache>();

/** Extra client options: tests pass `customFetch` to alter what the directory answers. */
export interface DirectoryOptions {
  customFetch?: oidc.CustomFetch;
}

function clientAuth(settings: DirectorySettings): oidc.ClientAuth {
  return settings.clientSecret ? oidc.ClientSecretBasic(settings.clientSecret) : oidc.None();
}

/**
 * A client Configuration for one request. Token times (`exp`, `iat`) are the directory's and are checked against the
 * system clock, never the app's test clock. Discovery runs once per issuer (again after a failure).
 */
export async function directoryClient(
  settings: DirectorySettings,
  options: DirectoryOptions = {},
): Promise<oidc.Configuration> {
  const key = `${settings.issuer} ${settings.clientId}`;
  let metadata = discovered.get(key);
  if (!metadata) {
    metadata = oidc
      .discovery(new URL(settings.issuer), settings.clientId, undefined, clientAuth(settings), {
        execute: settings.allowHttp ? [oidc.allowInsecureRequests] : [],
        ...(options.customFetch ? { [oidc.customFetch]: options.customFetch } : {}),
      })
      .then((config) => config.serverMetadata());
    discovered.set(key, metadata);
    metadata.catch(() => discovered.delete(key));
  }
  const config = new oidc.Configuration(await metadata, settings.clientId, undefined, clientAuth(settings));
  if (settings.allowHttp) oidc.allowInsecureRequests(config);
  oidc.enableNonRepudiationChecks(config);
  if (options.customFetch) config[oidc.customFetch] = options.customFetch;
  const cache = jwksCaches.get(key);
  if (cache) oidc.setJwksCache(config, cache);
  return config;
}

function keepJwks(settings: DirectorySettings, config: oidc.Configuration): void {
  const cache = oidc.getJwksCache(config);
  if (cache) jwksCaches.set(`${settings.issuer} ${settings.clientId}`, cache);
}

/** Starts a sign-in: the directory's authorization URL and the checks the callback must find again. */
export async function signInRequest(
  settings: DirectorySettings,
  options: DirectoryOptions = {},
): Promise<{ url: string; checks: SignInChecks }> {
  const config = await directoryClient(settings, options);
  const checks = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: settings.redirectUrl,
    scope: settings.scopes,
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, checks };
}

/** The console roles of a list of groups (settings map them); a supervisor also has the help desk's. */
export function rolesOfGroups(settings: DirectorySettings, groups: unknown): OperatorRole[] {
  const list = Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [];
  const supervisor = list.some((g) => settings.supervisorGroups.includes(g));
  const helpDesk = supervisor || list.some((g) => settings.helpDeskGroups.includes(g));
  return [...(helpDesk ? (['help_desk'] as const) : []), ...(supervisor ? (['supervisor'] as const) : [])];
}

/** Whether the ID token reports multi-factor authentication (`amr`, RFC 8176, or an `acr` the settings list). */
export function hadMultiFactor(settings: DirectorySettings, claims: oidc.IDToken): boolean {
  const amr = Array.isArray(claims.amr) ? claims.amr : [];
  if (amr.some((value) => typeof value === 'string' && settings.mfaAmrValues.includes(value))) return true;
  return typeof claims.acr === 'string' && settings.mfaAcrValues.includes(claims.acr);
}

function identityOf(settings: DirectorySettings, claims: Record<string, unknown>, subject: string): DirectoryIdentity {
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : '');
  return {
    subject,
    name: text(claims.name) || text(claims.preferred_username) || subject,
    email: text(claims.email),
    roles: rolesOfGroups(settings, claims[settings.groupsClaim]),
  };
}

/** A refusal of the directory's answer, with why (logged, never shown: the person sees the code's message). */
export class SignInRefused extends PortalError {
  constructor(
    code: 'Ops_Sign_In_Failed' | 'Ops_No_Role' | 'Ops_Mfa_Required',
    readonly why: string,
  ) {
    super(code === 'Ops_Sign_In_Failed' ? 400 : 403, code);
  }
}

/**
 * Completes a sign-in from the directory's redirect (`callbackUrl`, with `code`, `state` and `iss`): exchanges the
 * code with the PKCE verifier, checks the ID token (issuer, audience, nonce, expiry, signature: the library; MFA and a
 * mapped group: here), and answers who signed in and the tokens for the later re-checks.
 */
export async function completeSignIn(
  settings: DirectorySettings,
  callbackUrl: URL,
  checks: SignInChecks,
  options: DirectoryOptions = {},
): Promise<{ identity: DirectoryIdentity; tokens: DirectoryTokens }> {
  const config = await directoryClient(settings, options);
  let result: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    result = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    throw new SignInRefused('Ops_Sign_In_Failed', (err as Error).message);
  } finally {
    keepJwks(settings, config);
  }
  const claims = result.claims();
  if (!claims) throw new SignInRefused('Ops_Sign_In_Failed', 'no ID token');
  if (settings.requireMfa && !hadMultiFactor(settings, claims))
    throw new SignInRefused('Ops_Mfa_Required', `amr ${JSON.stringify(claims.amr ?? null)}, acr ${claims.acr ?? null}`);
  let source: Record<string, unknown> = claims;
  if (!(settings.groupsClaim in claims)) {
    // Some directories release groups in userinfo only.
    source = { ...(await oidc.fetchUserInfo(config, result.access_token, claims.sub)), ...claims };
  }
  const identity = identityOf(settings, source, claims.sub);
  if (!identity.roles.length)
    throw new SignInRefused('Ops_No_Role', `groups ${JSON.stringify(source[settings.groupsClaim] ?? null)}`);
  return {
    identity,
    tokens: {
      accessToken: result.access_token,
      refreshToken: result.refresh_token ?? null,
      idToken: result.id_token ?? null,
    },
  };
}

/**
 * Asks the directory again whether the person is still signed in and in a mapped group: userinfo with the access
 * token, or, once that is refused, a refresh grant first. Answers the roles now (empty: none any more) and the tokens
 * to keep, or null when the directory no longer knows the session (signed out, disabled, tokens revoked).
 */
export async function recheckIdentity(
  settings: DirectorySettings,
  subject: string,
  tokens: DirectoryTokens,
  options: DirectoryOptions = {},
): Promise<{ identity: DirectoryIdentity; tokens: DirectoryTokens } | null> {
  const config = await directoryClient(settings, options);
  try {
    const info = await oidc.fetchUserInfo(config, tokens.accessToken, subject);
    return { identity: identityOf(settings, info, subject), tokens };
  } catch {
    if (!tokens.refreshToken) return null;
  }
  try {
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refreshToken);
    const next = {
      accessToken: refreshed.access_token,
      refreshToken: refreshed.refresh_token ?? tokens.refreshToken,
      idToken: refreshed.id_token ?? tokens.idToken,
    };
    const info = await oidc.fetchUserInfo(config, next.accessToken, subject);
    return { identity: identityOf(settings, info, subject), tokens: next };
  } catch {
    return null;
  } finally {
    keepJwks(settings, config);
  }
}

/** The directory's end-session URL for a sign-out (null when it offers none). */
export async function endSessionUrl(
  settings: DirectorySettings,
  idToken: string | null,
  postLogoutRedirect: string,
): Promise<string | null> {
  const config = await directoryClient(settings);
  if (!config.serverMetadata().end_session_endpoint) return null;
  return oidc.buildEndSessionUrl(config, {
    ...(idToken ? { id_token_hint: idToken } : {}),
    post_logout_redirect_uri: postLogoutRedirect,
  }).href;
}
