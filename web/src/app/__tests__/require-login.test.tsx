import { render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { server } from '../../testing/msw-server';
import { createTestQueryClient } from '../../testing/render-app';
import { AppProviders } from '../app-providers';
import { RequireLogin } from '../require-login';

function renderProtected() {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <p>login page</p> },
      {
        path: '/private',
        element: (
          <RequireLogin>
            <p>private page</p>
          </RequireLogin>
        ),
      },
    ],
    { initialEntries: ['/private?tab=2'] },
  );
  render(
    <AppProviders queryClient={createTestQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('protected pages (docs/requirements/session.md#login)', () => {
  it('redirect to /login?next=<the page> without a login', async () => {
    const router = renderProtected();
    await screen.findByText('login page');
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/login?next=%2Fprivate%3Ftab%3D2');
  });

  it('show the page once the server confirms the session', async () => {
    server.use(http.get('/api/session', () => HttpResponse.json({ data: { loggedIn: true } })));
    const router = renderProtected();
    await screen.findByText('private page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/private'));
  });
});
