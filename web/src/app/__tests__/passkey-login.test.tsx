import { screen, waitFor, within } from '@testing-library/react';
import { ACCOUNT_ROUTES } from '@portal/contracts';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultErrorMessages } from '../../testing/content-handlers';
import { server } from '../../testing/msw-server';
import { renderApp } from '../../testing/render-app';

const cookies = { region: 'J5B', amaApproved: 'true' };
const bytes = (text: string) => new TextEncoder().encode(text).buffer;

/** A browser with WebAuthn whose authenticator answers `get` as given. */
function fakeWebAuthn(get: () => Promise<unknown>) {
  (window as { PublicKeyCredential?: unknown }).PublicKeyCredential = function PublicKeyCredential() {};
  Object.defineProperty(navigator, 'credentials', { configurable: true, value: { get } });
}

/** The assertion a platform authenticator returns (the fields @simplewebauthn/browser reads). */
const assertion = {
  id: 'Y3JlZA',
  rawId: bytes('cred'),
  type: 'public-key',
  authenticatorAttachment: 'platform',
  response: {
    clientDataJSON: bytes('{"type":"webauthn.get"}'),
    authenticatorData: bytes('auth-data'),
    signature: bytes('signature'),
    userHandle: null,
  },
  getClientExtensionResults: () => ({}),
};

function loginToMfaStep() {
  const verified: unknown[] = [];
  server.use(
    http.post('/api/auth/login', () => HttpResponse.json({ data: { next: 'mfa' } })),
    http.post(ACCOUNT_ROUTES.passkeyLoginOptions, () =>
      HttpResponse.json({
        data: { challenge: 'Y2hhbGxlbmdl', allowCredentials: [{ id: 'Y3JlZA', type: 'public-key' }] },
      }),
    ),
    http.post(ACCOUNT_ROUTES.passkeyLogin, async ({ request }) => {
      verified.push(await request.json());
      return verified.length === 1 && (verified[0] as { credential: { id: string } }).credential.id === 'bad'
        ? HttpResponse.json({ errorMessage: 'Passkey_Verification_Failed' }, { status: 400 })
        : HttpResponse.json({ data: { loggedIn: true } });
    }),
  );
  const view = renderApp({ path: '/login?next=%2Ftopics%2Fappeals', cookies });
  return { ...view, verified };
}

async function enterPassword(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText(/username/i), 'demo.admin.j5');
  await user.type(screen.getByLabelText(/^password/i), 'Harbor lantern quartz meadow');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  await screen.findByRole('textbox', { name: /verification code or recovery code/i });
}

describe('passkey at login (docs/requirements/session.md#mfa)', { timeout: 30_000 }, () => {
  afterEach(() => {
    delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  });

  it('is not offered where the browser has no WebAuthn', async () => {
    const { user } = loginToMfaStep();
    await enterPassword(user);
    expect(screen.queryByRole('button', { name: 'Use a passkey instead' })).not.toBeInTheDocument();
  });

  it('a passkey finishes the login and goes on to next', async () => {
    fakeWebAuthn(() => Promise.resolve(assertion));
    const { user, router, verified } = loginToMfaStep();
    await enterPassword(user);
    await user.click(screen.getByRole('button', { name: 'Use a passkey instead' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/topics/appeals'));
    expect(verified).toEqual([
      { credential: expect.objectContaining({ id: 'Y3JlZA', rawId: 'Y3JlZA', type: 'public-key' }) },
    ]);
  });

  it('a cancelled ceremony says so and keeps the code step', async () => {
    fakeWebAuthn(() => Promise.reject(new DOMException('The operation was not allowed.', 'NotAllowedError')));
    const { user, verified } = loginToMfaStep();
    await enterPassword(user);
    await user.click(screen.getByRole('button', { name: 'Use a passkey instead' }));
    expect(
      await within(screen.getByTestId('passkey-login-error')).findByText(/cancelled or timed out.*enter a code/),
    ).toBeInTheDocument();
    expect(verified).toHaveLength(0);
    expect(screen.getByRole('textbox', { name: /verification code or recovery code/i })).toBeInTheDocument();
  });

  it('a passkey the server does not recognise shows its message', async () => {
    fakeWebAuthn(() => Promise.resolve({ ...assertion, id: 'bad' }));
    const { user, router } = loginToMfaStep();
    await enterPassword(user);
    await user.click(screen.getByRole('button', { name: 'Use a passkey instead' }));
    expect(
      await within(screen.getByTestId('passkey-login-error')).findByText(
        defaultErrorMessages.Passkey_Verification_Failed!,
      ),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });
});
