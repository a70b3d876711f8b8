import { INVITATION_ACCEPT_PATH, INVITATION_LOOKUP_PATH } from '@portal/contracts/invitations';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { errorMessagesRoute } from '../../../testing/content-handlers';
import { answerPostsInTurn, recordRequests, server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const cookies = { region: 'J5B', amaApproved: 'true' };
const TOKEN = 'invitation-token-abcdefghijklmnopqrstuvwxyz';
const STORAGE_KEY = 'portal.invitation-token';
const summary = {
  locationName: 'Prairie Valley Clinic',
  email: 'dana.reyes@example.com',
  role: 'user',
  expiresAt: '2026-12-03T09:00:00.000Z',
};
const MESSAGES = {
  Invitation_Expired: 'This invitation has expired. Ask your administrator to invite you again.',
  Invitation_Email_Mismatch: 'This invitation was sent to a different email address than the one on your account.',
};

const openLink = (hash: string) => window.history.replaceState(null, '', `/invitation${hash}`);
const loggedIn = () =>
  server.use(http.get('/api/session', () => HttpResponse.json({ data: { loggedIn: true, username: 'pat' } })));

const ok = (data: unknown) => () => HttpResponse.json({ data });
const fail = (status: number, code: string) => () => HttpResponse.json({ errorMessage: code }, { status });

afterEach(() => window.sessionStorage.clear());

describe('/invitation, the page of an emailed invitation (docs/requirements/staff-accounts.md#invitations)', () => {
  it('logged out: looks the token up in a POST body, clears it from the address bar, offers registration and login', async () => {
    const lookups = answerPostsInTurn(INVITATION_LOOKUP_PATH, [ok(summary)]);
    const requests = recordRequests();
    openLink(`#token=${TOKEN}`);
    renderApp({ path: '/invitation', cookies });

    expect(await screen.findByTestId('invitation-summary')).toHaveTextContent(
      'You are invited to use the portal for Prairie Valley Clinic as a user of that provider location. The invitation works once, until December 3, 2026.',
    );
    expect(lookups).toEqual([{ token: TOKEN }]);
    expect(window.location.hash).toBe('');
    // The token never travels in a URL.
    expect(requests.filter((url) => url.href.includes(TOKEN))).toEqual([]);
    expect(window.sessionStorage.getItem(STORAGE_KEY)).toBe(TOKEN);
    // The choices wait for the session check (nothing is offered to someone who may be logged in).
    expect(await screen.findByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register/user');
    expect(screen.getByRole('link', { name: 'I already have an account' })).toHaveAttribute(
      'href',
      '/login?next=%2Finvitation',
    );
    expect(screen.queryByRole('button', { name: 'Accept the invitation' })).not.toBeInTheDocument();
  });

  it('back from the login without the fragment: the tab still holds the token; Accept adds the location', async () => {
    window.sessionStorage.setItem(STORAGE_KEY, TOKEN);
    loggedIn();
    const lookups = answerPostsInTurn(INVITATION_LOOKUP_PATH, [ok({ ...summary, role: 'administrator' })]);
    const accepts = answerPostsInTurn(INVITATION_ACCEPT_PATH, [
      ok({ locationId: 'loc-1', locationName: 'Prairie Valley Clinic', role: 'administrator' }),
    ]);
    openLink('');
    const { user } = renderApp({ path: '/invitation', cookies });

    await user.click(await screen.findByRole('button', { name: 'Accept the invitation' }));
    const accepted = await screen.findByTestId('invitation-accepted');
    expect(accepted).toHaveTextContent('Prairie Valley Clinic is now on your account, as an administrator.');
    expect(within(accepted).getByRole('link', { name: 'Go to the portal home' })).toHaveAttribute('href', '/portal');
    expect(lookups).toEqual([{ token: TOKEN }]);
    expect(accepts).toEqual([{ token: TOKEN }]);
    expect(window.sessionStorage.getItem(STORAGE_KEY)).toBeNull();
  });

  it("a refused acceptance (another account's address) shows the CMS text and keeps the button", async () => {
    server.use(errorMessagesRoute(MESSAGES));
    loggedIn();
    answerPostsInTurn(INVITATION_LOOKUP_PATH, [ok(summary)]);
    answerPostsInTurn(INVITATION_ACCEPT_PATH, [fail(403, 'Invitation_Email_Mismatch')]);
    openLink(`#token=${TOKEN}`);
    const { user } = renderApp({ path: '/invitation', cookies });
    await user.click(await screen.findByRole('button', { name: 'Accept the invitation' }));
    await waitFor(() =>
      expect(screen.getByTestId('invitation-accept-error')).toHaveTextContent(MESSAGES.Invitation_Email_Mismatch),
    );
    expect(screen.getByRole('button', { name: 'Accept the invitation' })).toBeEnabled();
  });

  it('an expired (or used, withdrawn, unknown) invitation shows the CMS text and the tab forgets the token', async () => {
    server.use(errorMessagesRoute(MESSAGES));
    answerPostsInTurn(INVITATION_LOOKUP_PATH, [fail(400, 'Invitation_Expired')]);
    openLink(`#token=${TOKEN}`);
    renderApp({ path: '/invitation', cookies });
    const error = await screen.findByTestId('invitation-error');
    await waitFor(() => expect(error).toHaveTextContent(MESSAGES.Invitation_Expired));
    await waitFor(() => expect(window.sessionStorage.getItem(STORAGE_KEY)).toBeNull());
    expect(screen.queryByRole('link', { name: 'Create an account' })).not.toBeInTheDocument();
  });

  it('without a token says to open the link from the email and sends nothing', async () => {
    const lookups = answerPostsInTurn(INVITATION_LOOKUP_PATH, [ok(summary)]);
    openLink('');
    renderApp({ path: '/invitation', cookies });
    expect(await screen.findByTestId('invitation-error')).toHaveTextContent(/Open the link from the email/);
    expect(lookups).toEqual([]);
  });
});
