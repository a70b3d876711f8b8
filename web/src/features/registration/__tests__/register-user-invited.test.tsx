import { ACCESS_REQUEST_ROUTES } from '@portal/contracts/access-requests';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { fillAccount } from './account-form';

const cookies = { region: 'J5B', amaApproved: 'true' };
const TOKEN = 'invitation-token-abcdefghijklmnopqrstuvwxyz';
const STORAGE_KEY = 'portal.invitation-token';

afterEach(() => window.sessionStorage.clear());

// The account form is long and typing into it is slow in jsdom on a shared machine.
describe(
  '/register/user with an invitation (docs/requirements/staff-accounts.md#invitations)',
  { timeout: 120_000 },
  () => {
    it('starts at the account, sends the invitation with no location, and forgets it once registered', async () => {
      window.sessionStorage.setItem(STORAGE_KEY, TOKEN);
      const bodies: unknown[] = [];
      server.use(
        http.post(ACCESS_REQUEST_ROUTES.userRegistration, async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json({ data: { registered: true } }, { status: 201 });
        }),
      );
      const { user } = renderApp({ path: '/register/user', cookies });
      expect(await screen.findByTestId('register-invited')).toHaveTextContent(
        'the invited provider location is on your account as soon as it exists',
      );
      expect(await screen.findByRole('heading', { name: /Your account/ })).toBeInTheDocument();

      await fillAccount(user);
      await user.click(screen.getByRole('button', { name: /register|create/i }));

      expect(await screen.findByRole('heading', { name: /Check your email/ })).toBeInTheDocument();
      expect(bodies).toHaveLength(1);
      expect(bodies[0]).toMatchObject({ email: 'pat.rivera@clinic.example', locations: [], invitationToken: TOKEN });
      expect(window.sessionStorage.getItem(STORAGE_KEY)).toBeNull();
    });

    it('without an invitation starts at the provider locations, as before', async () => {
      renderApp({ path: '/register/user', cookies });
      expect(await screen.findByRole('heading', { name: /Provider locations/ })).toBeInTheDocument();
      expect(screen.queryByTestId('register-invited')).not.toBeInTheDocument();
    });
  },
);
