import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { REGISTRATION_ROUTES } from '@portal/contracts/registration';
import { defaultErrorMessages, errorMessagesRoute } from '../../../testing/content-handlers';
import { server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const cookies = { region: 'J5B', amaApproved: 'true' };
const TOKEN = 'verify-token-abcdefghijklmnop';

/** The link's fragment as the browser has it (the memory router keeps no real address bar). */
function openLink(hash: string) {
  window.history.replaceState(null, '', `/verify-email${hash}`);
}

function verifyAnswers(answer: () => Response) {
  const tokens: unknown[] = [];
  const resends: unknown[] = [];
  server.use(
    http.post(REGISTRATION_ROUTES.verifyEmail, async ({ request }) => {
      tokens.push(await request.json());
      return answer();
    }),
    http.post(REGISTRATION_ROUTES.resendVerification, async ({ request }) => {
      resends.push(await request.json());
      return HttpResponse.json({ data: { accepted: true } });
    }),
  );
  return { tokens, resends };
}

describe('/verify-email (docs/requirements/portal.md#email-verification)', () => {
  it('posts the token from the fragment once, removes it from the address bar and links to the login', async () => {
    const { tokens } = verifyAnswers(() => HttpResponse.json({ data: { verified: true } }));
    openLink(`#token=${TOKEN}`);
    renderApp({ path: `/verify-email#token=${TOKEN}`, cookies });
    const success = await screen.findByTestId('verify-email-success');
    expect(success).toHaveTextContent('your account is active');
    // A button, not an inline link in the sentence (issue 22, item 10).
    const logIn = within(success).getByRole('link', { name: 'Log in' });
    expect(logIn).toHaveAttribute('href', '/login');
    expect(logIn).toHaveClass('MuiButton-contained');
    expect(tokens).toEqual([{ token: TOKEN }]);
    expect(window.location.hash).toBe('');
  });

  it('a used or expired link shows the error and sends a new link to the address typed', async () => {
    const { resends } = verifyAnswers(() =>
      HttpResponse.json({ errorMessage: 'Verification_Link_Invalid' }, { status: 400 }),
    );
    openLink(`#token=${TOKEN}`);
    const { user } = renderApp({ path: '/verify-email', cookies });
    const error = await screen.findByTestId('verify-email-error');
    await waitFor(() => expect(error).toHaveTextContent(defaultErrorMessages.Verification_Link_Invalid!));
    // The resend form's code loads once the link is known to be bad (lib/lazy-part.tsx).
    await user.click(await screen.findByRole('button', { name: 'Send a new link' }));
    expect(await screen.findByTestId('form-error-summary')).toBeInTheDocument();
    expect(resends).toEqual([]);
    await user.click(screen.getByLabelText(/email you registered with/i));
    await user.paste('pat.rivera@clinic.example');
    await user.click(screen.getByRole('button', { name: 'Send a new link' }));
    expect(await screen.findByText(/we sent a new verification link/)).toBeInTheDocument();
    await waitFor(() => expect(resends).toEqual([{ email: 'pat.rivera@clinic.example' }]));
  });

  it('a link already used on a verified account says so and offers the login, not a resend', async () => {
    const { resends } = verifyAnswers(() =>
      HttpResponse.json({ errorMessage: 'Email_Already_Verified' }, { status: 400 }),
    );
    server.use(
      errorMessagesRoute({
        Email_Already_Verified: 'This link was already used: your email address is verified. Log in to continue.',
      }),
    );
    openLink(`#token=${TOKEN}`);
    renderApp({ path: '/verify-email', cookies });
    const already = await screen.findByTestId('verify-email-already');
    await waitFor(() => expect(already).toHaveTextContent(/already used: your email address is verified/));
    expect(within(already).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByTestId('verify-email-error')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send a new link' })).not.toBeInTheDocument();
    expect(resends).toEqual([]);
  });

  it('without a token it says to open the link from the email and posts nothing', async () => {
    const { tokens } = verifyAnswers(() => HttpResponse.json({ data: { verified: true } }));
    openLink('');
    renderApp({ path: '/verify-email', cookies });
    expect(await screen.findByTestId('verify-email-error')).toHaveTextContent('Open the link from the email');
    expect(tokens).toEqual([]);
  });
});
