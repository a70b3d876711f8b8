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
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
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
    await user.type(screen.getByLabelText(/6-digit code/i), '6');
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
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('Log out: server logout, then "Your session has been terminated"; Login goes back to the login field', async () => {
    server.use(
      http.get('/api/session', () => HttpResponse.json({ data: { loggedIn: true, username: 'demo.user.j5' } })),
    );
    const requests = recordRequests();
    const { user, router } = renderApp({ path: '/topics/appeals', cookies });
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your session has been terminated' });
    expect(requests.filter((url) => url.pathname === '/api/auth/logout')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await waitFor(() => expect(screen.getByLabelText(/username/i)).toHaveFocus());
  });
});
