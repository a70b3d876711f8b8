import { OPS_PAGE_PATHS, OPS_SIGN_IN_REFUSAL_PARAM, type OpsSignInRefusal } from '@portal/contracts/ops';
import { decryptSecret, encryptSecret } from '../../platform/encryption';
import { audit } from '../../platform/service-context';
import { completeSignIn, endSessionUrl, signInRequest, SignInRefused, type DirectoryOptions } from './directory';
import { createOpsSession, endOpsSession, operatorActor, upsertOperator, type OpsContext } from './session';

/**
 * The console's sign-in through the directory (docs/requirements/help-desk.md#sign-in): its start, the directory's
 * redirect back, and the sign-out. The state, nonce and PKCE verifier travel between start and callback in a cookie
 * of their own (path `/api/ops/auth`), encrypted under ENCRYPTION_KEY, for 10 minutes.
 */

/** How long a started sign-in may take at the directory. */
export const SIGN_IN_TTL_MS = 10 * 60_000;

/** A console path to land on after the sign-in; anything else (another site, `//host`, `\`) is `/ops`. */
export function safeReturnTo(returnTo: string | undefined): string {
  const console = OPS_PAGE_PATHS.console;
  if (!returnTo || !/^\/ops(\/[\w\-/]*)?(\?[\w\-=&%.]*)?$/.test(returnTo) || returnTo.includes('//')) return console;
  return returnTo;
}

/** Starts a sign-in: the directory's URL to send the browser to, and the sign-in cookie's value. */
export async function startSignIn(
  ctx: OpsContext,
  returnTo: string | undefined,
  options: DirectoryOptions = {},
): Promise<{ url: string; cookie: string }> {
  const { url, checks } = await signInRequest(ctx.config.ops.oidc!, options);
  const state = { ...checks, returnTo: safeReturnTo(returnTo), at: ctx.now().getTime() };
  return { url, cookie: encryptSecret(ctx.secrets.encryptionKey, JSON.stringify(state)) };
}

interface SignInState {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  at: number;
}

function readState(ctx: OpsContext, cookie: string | undefined): SignInState | null {
  if (!cookie) return null;
  try {
    const state = JSON.parse(decryptSecret(ctx.secrets.encryptionKey, cookie)) as SignInState;
    const age = ctx.now().getTime() - state.at;
    return age >= 0 && age <= SIGN_IN_TTL_MS ? state : null;
  } catch {
    return null;
  }
}

/**
 * Completes a sign-in from the directory's redirect (`callbackQuery`: its query string). Answers where to send the
 * browser and, when the sign-in succeeded, the console session's id for the cookie. A refusal (`Ops_Sign_In_Failed`,
 * `Ops_No_Role`, `Ops_Mfa_Required`) sends the browser to `/ops?signIn=<code>`. Every attempt is audited (`ops.sign-in`).
 */
export async function finishSignIn(
  ctx: OpsContext,
  cookie: string | undefined,
  callbackQuery: string,
  options: DirectoryOptions = {},
): Promise<{ location: string; sessionId?: string }> {
  const settings = ctx.config.ops.oidc!;
  const state = readState(ctx, cookie);
  const refused = async (code: OpsSignInRefusal, why: string, subject?: string) => {
    ctx.log.info({ code, why }, 'console sign-in refused');
    await audit(ctx, ctx.db, {
      actor: null,
      action: 'ops.sign-in',
      target: subject ? `directory:${subject}`.slice(0, 200) : null,
      outcome: 'failure',
      details: { reason: code },
    });
    return { location: `${OPS_PAGE_PATHS.console}?${OPS_SIGN_IN_REFUSAL_PARAM}=${code}` };
  };
  if (!state) return refused('Ops_Sign_In_Failed', 'no sign-in in progress (cookie missing, altered or expired)');
  const callbackUrl = new URL(settings.redirectUrl);
  callbackUrl.search = callbackQuery;
  try {
    const { identity, tokens } = await completeSignIn(settings, callbackUrl, state, options);
    const operatorId = await upsertOperator(ctx, identity);
    const sessionId = await createOpsSession(ctx, operatorId, tokens);
    await audit(ctx, ctx.db, {
      actor: operatorActor(operatorId),
      action: 'ops.sign-in',
      target: operatorActor(operatorId),
      outcome: 'success',
    });
    return { location: state.returnTo, sessionId };
  } catch (err) {
    if (err instanceof SignInRefused) return refused(err.code as OpsSignInRefusal, err.why);
    throw err;
  }
}

/** Ends the console session; answers the directory's end-session URL (null when it has none). */
export async function signOut(ctx: OpsContext, sessionIdHash: string, operatorId: string): Promise<string | null> {
  const idToken = await endOpsSession(ctx, sessionIdHash);
  await audit(ctx, ctx.db, {
    actor: operatorActor(operatorId),
    action: 'ops.sign-out',
    target: operatorActor(operatorId),
    outcome: 'success',
  });
  try {
    return await endSessionUrl(ctx.config.ops.oidc!, idToken, `${ctx.config.publicUrl}${OPS_PAGE_PATHS.console}`);
  } catch {
    return null;
  }
}
