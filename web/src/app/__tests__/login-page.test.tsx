import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultErrorMessages, SYSTEM_USE_NOTICE_TEXT } from '../../testing/content-handlers';
import { recordRequests, server } from '../../testing/msw-server';
import { renderApp } from '../../testing/render-app';

// Region and license accepted, so the dialog flow leaves the login page alone.
const cookies = { region: 'J5B', amaApproved: 'true' };
const RECOVERY_CODES = Array.from({ length: 10 }, (_, i) => `code-${i}`);

function loginAnswers(next: 'mfa' | 'mfa-enroll') {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/auth/login', async ({ request }) => {
      const body = (await request.json()) as { username: string; password: string };
      bodies.push(body);
      return body.password === 'right password'
        ? HttpResponse.json({ data: { next } })
        : HttpResponse.json({ errorMessage: 'Login_Failed' }, { status: 401 });
    }),
    http.post('/api/auth/mfa', async ({ request }) => {
      const { code } = (await request.json()) as { code: string };
      return code === '123456'
        ? HttpResponse.json({ data: { loggedIn: true } })
        : HttpResponse.json({ errorMessage: 'Mfa_Code_Invalid' }, { status: 400 });
    }),
    http.post('/api/auth/mfa/enroll', async ({ request }) => {
      const { code } = (await request.json()) as { code?: string };
      if (code === undefined)
        return HttpResponse.json({
          data: {
            otpauthUrl: 'otpauth://totp/x',
            secret: 'ABCD EFGH IJKL MNOP',
            qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
          },
        });
      if (code !== '123456') return HttpResponse.json({ errorMessage: 'Mfa_Setup_Code_Invalid' }, { status: 401 });
      return HttpResponse.json({ data: { recoveryCodes: RECOVERY_CODES, loggedIn: true } });
    }),
  );
  return bodies;
}

async function enterPassword(user: ReturnType<typeof renderApp>['user'], password: string) {
  await user.type(await screen.findByLabelText(/username/i), 'demo.user.j5');
  await user.type(screen.getByLabelText(/^password/i), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('/login (docs/requirements/session.md#login)', () => {
  it('shows the CMS system-use notice above the form', async () => {
    renderApp({ path: '/login', cookies });
    expect(
      await within(await screen.findByTestId('system-use-notice')).findByText(SYSTEM_USE_NOTICE_TEXT),
    ).toBeInTheDocument();
  });

  it('an empty submit: the summary takes focus and each field error is tied to its field', async () => {
    const requests = recordRequests();
    const { user } = renderApp({ path: '/login', cookies });
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    const summary = await screen.findByTestId('form-error-summary');
    await waitFor(() => expect(summary).toHaveFocus());
    expect(within(summary).getByRole('link', { name: 'Enter your username.' })).toHaveAttribute(
      'href',
      '#login-username',
    );
    const username = screen.getByLabelText(/username/i);
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(username.getAttribute('aria-describedby')!)).toHaveTextContent(
      'Enter your username.',
    );
    expect(requests.some((url) => url.pathname === '/api/auth/login')).toBe(false);
  });

  it("a wrong password shows the CMS text of the server's error code and empties the password", async () => {
    loginAnswers('mfa');
    const { user } = renderApp({ path: '/login', cookies });
    await enterPassword(user, 'wrong password');
    expect(await screen.findByText(defaultErrorMessages.Login_Failed!)).toBeInTheDocument();
    expect(screen.getByLabelText(/^password/i)).toHaveValue('');
  });

  it('password, then a wrong and a right TOTP code: logged in, back to the same-site next page, Log out in the header', async () => {
    const bodies = loginAnswers('mfa');
    const { user, router } = renderApp({ path: '/login?next=%2Ftopics%2Fappeals', cookies });
    await enterPassword(user, 'right password');
    expect(bodies).toEqual([{ username: 'demo.user.j5', password: 'right password' }]);
    const code = await screen.findByRole('textbox', { name: /verification code or recovery code/i });
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(defaultErrorMessages.Mfa_Code_Invalid!)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /verification code or recovery code/i }), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/topics/appeals'));
    expect(await screen.findByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('never follows a next that leaves the site', async () => {
    loginAnswers('mfa');
    const { user, router } = renderApp({ path: '/login?next=%2F%2Fevil.example%2Fx', cookies });
    await enterPassword(user, 'right password');
    await user.type(await screen.findByRole('textbox', { name: /verification code or recovery code/i }), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/portal'));
  });

  it('without a next, the login lands on the portal home', async () => {
    loginAnswers('mfa');
    const { user, router } = renderApp({ path: '/login', cookies });
    await enterPassword(user, 'right password');
    await user.type(await screen.findByRole('textbox', { name: /verification code or recovery code/i }), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/portal'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Portal home' })).toBeInTheDocument();
  });

  it('codes typed as the app shows them ("123 456", "123-456") are sent as 123456; the summary holds only the current error', async () => {
    const codes: string[] = [];
    loginAnswers('mfa');
    server.use(
      http.post('/api/auth/mfa', async ({ request }) => {
        const { code } = (await request.json()) as { code: string };
        codes.push(code);
        return code === '123456'
          ? HttpResponse.json({ data: { loggedIn: true } })
          : HttpResponse.json({ errorMessage: 'Mfa_Code_Invalid' }, { status: 401 });
      }),
    );
    const { user, router } = renderApp({ path: '/login', cookies });
    await enterPassword(user, 'right password');
    const field = () => screen.getByRole('textbox', { name: /verification code or recovery code/i });
    await user.type(await screen.findByRole('textbox', { name: /verification code or recovery code/i }), '000 000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    const summary = await screen.findByTestId('form-error-summary');
    await within(summary).findByText(defaultErrorMessages.Mfa_Code_Invalid!);
    // Then a code too short to send: the form's own message replaces the server's, not beside it.
    await user.type(field(), '12');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(screen.getByTestId('form-error-summary')).not.toHaveTextContent(defaultErrorMessages.Mfa_Code_Invalid!),
    );
    expect(screen.getByTestId('form-error-summary')).toHaveTextContent(/Enter the 6-digit code/);
    await user.clear(field());
    await user.type(field(), '123-456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/portal'));
    expect(codes).toEqual(['000000', '123456']);
  });

  it('the right password of an unverified account: the summary says to verify the email and offers a new link', async () => {
    const resent: unknown[] = [];
    server.use(
      http.post('/api/auth/login', () => HttpResponse.json({ errorMessage: 'Email_Not_Verified' }, { status: 403 })),
      http.post('/api/auth/verify-email/resend', async ({ request }) => {
        resent.push(await request.json());
        return HttpResponse.json({ data: { accepted: true } });
      }),
    );
    const { user } = renderApp({ path: '/login', cookies });
    await enterPassword(user, 'right password');
    const summary = await screen.findByTestId('form-error-summary');
    await within(summary).findByText(defaultErrorMessages.Email_Not_Verified!);
    expect(summary).not.toHaveTextContent(defaultErrorMessages.Login_Failed!);
    const resend = screen.getByRole('form', { name: 'Send a new link' });
    await user.type(within(resend).getByLabelText(/email you registered with/i), 'pat@clinic.example');
    await user.click(within(resend).getByRole('button', { name: 'Send a new link' }));
    expect(await screen.findByText(/we sent a new verification link/)).toBeInTheDocument();
    expect(resent).toEqual([{ email: 'pat@clinic.example' }]);
  });

  it('first login: QR code and manual key, confirm with a code, then the 10 recovery codes until "I saved them"', async () => {
    loginAnswers('mfa-enroll');
    const { user, router } = renderApp({ path: '/login', cookies });
    await enterPassword(user, 'right password');
    expect(await screen.findByRole('img', { name: /qr code/i })).toBeInTheDocument();
    expect(screen.getByTestId('mfa-manual-key')).toHaveTextContent('ABCD EFGH IJKL MNOP');
    await user.type(screen.getByLabelText(/6-digit code/i), '12345');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByTestId('form-error-summary')).toHaveTextContent(
      'Enter the 6-digit code your authenticator app shows.',
    );
    // Finished as the app shows it, "12345 6": sent as 123456.
    await user.type(screen.getByLabelText(/6-digit code/i), ' 6');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    const list = await screen.findByTestId('recovery-codes');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(RECOVERY_CODES);
    const continueButton = screen.getByRole('button', { name: 'Continue' });
    expect(continueButton).toBeDisabled();
    await user.click(screen.getByLabelText('I saved my recovery codes'));
    await user.click(continueButton);
    await waitFor(() => expect(router.state.location.pathname).toBe('/portal'));
  });

  it('Log out: server logout, then "You have logged out" (no session-ended dialog); its Log in opens the login', async () => {
    server.use(
      http.get('/api/session', () => HttpResponse.json({ data: { loggedIn: true, username: 'demo.user.j5' } })),
    );
    const requests = recordRequests();
    const { user, router } = renderApp({ path: '/topics/appeals', cookies });
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'You have logged out' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/logged-out');
    await waitFor(() => expect(requests.filter((url) => url.pathname === '/api/auth/logout')).toHaveLength(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(within(screen.getByRole('main')).getByRole('link', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
