import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../app-providers';
import { server } from '../../testing/msw-server';
import { createTestQueryClient } from '../../testing/render-app';
import { LoginHeaderControl } from '../../features/auth/login-header-control';

/** The session check answers when the test says so. */
function heldSessionCheck(loggedIn: boolean) {
  let answer = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  server.use(
    http.get('/api/session', async () => {
      await answered;
      return HttpResponse.json({ data: { loggedIn, ...(loggedIn ? { idleSecondsLeft: 1800 } : {}) } });
    }),
  );
  return answer;
}

function renderHeaderControl(mayHaveSession: boolean) {
  const router = createMemoryRouter([{ path: '*', element: <LoginHeaderControl /> }], { initialEntries: ['/'] });
  render(
    <AppProviders queryClient={createTestQueryClient()} mayHaveSession={mayHaveSession}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe("the header's account control", () => {
  it('shows no Log in to a browser that may be logged in until the session check answers', async () => {
    const answer = heldSessionCheck(true);
    renderHeaderControl(true);
    expect(screen.getByTestId('account-control-pending')).not.toBeVisible();
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
    answer();
    expect(await screen.findByRole('link', { name: 'My account' })).toBeVisible();
  });

  it('shows Log in once the session check says logged out', async () => {
    const answer = heldSessionCheck(false);
    renderHeaderControl(true);
    answer();
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeVisible();
    expect(screen.queryByTestId('account-control-pending')).toBeNull();
  });

  it('shows Log in at once on a page rendered for a request without a session cookie', () => {
    heldSessionCheck(false);
    renderHeaderControl(false);
    expect(screen.getByRole('link', { name: 'Log in' })).toBeVisible();
  });
});
