import { ACCOUNT_ROUTES, DDE_REQUESTS_PATH, type DdeRequestSummary } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { demoAccount } from '../../../testing/account-handlers';
import { server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const cookies = { region: 'J5B', amaApproved: 'true' };
const loggedIn = (administersLocation = true) =>
  server.use(
    http.get('/api/session', () =>
      HttpResponse.json({ data: { loggedIn: true, username: 'demo.admin.j5', administersLocation } }),
    ),
  );

const request = (n: number, extra: Partial<DdeRequestSummary> = {}): DdeRequestSummary => ({
  referenceNumber: `DDE-2026-00000${n}`,
  submittedAt: '2026-11-23T15:00:00.000Z',
  requestType: 'new',
  legalName: 'Prairie Valley Clinic',
  status: 'received',
  ...extra,
});

describe('/portal, the portal home (docs/requirements/portal.md#portal-home)', () => {
  it('sends a visitor without a login to /login?next=/portal', async () => {
    const { router } = renderApp({ path: '/portal', cookies });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?next=%2Fportal');
  });

  it("shows the user's locations and roles, the actions, and their DDE requests with reference, date and status", async () => {
    loggedIn();
    server.use(
      http.get(DDE_REQUESTS_PATH, () =>
        HttpResponse.json({ data: { requests: [request(2, { requestType: 'change' }), request(1)] } }),
      ),
    );
    renderApp({ path: '/portal', cookies });
    expect(await screen.findByRole('heading', { level: 1, name: 'Portal home' })).toBeInTheDocument();
    expect(await screen.findByText('Welcome, Dana.')).toBeInTheDocument();

    const locations = screen.getByRole('region', { name: 'Your provider locations and roles' });
    expect(within(locations).getByText('Prairie Valley Clinic')).toBeInTheDocument();
    expect(within(locations).getByText(/J5 · Part B · TIN \*{5}6789 · Your role: Administrator/)).toBeInTheDocument();
    expect(within(locations).getByText(/J5 · Part A · TIN \*{5}1234 · Your role: User/)).toBeInTheDocument();

    const actions = screen.getByRole('region', { name: 'What you can do' });
    expect(within(actions).getByRole('link', { name: 'Request DDE access' })).toHaveAttribute('href', '/dde-access');
    expect(within(actions).getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/account');
    // An administrator of a location reaches the console from here (docs/requirements/staff-accounts.md).
    expect(within(actions).getByRole('link', { name: 'Staff accounts' })).toHaveAttribute('href', '/admin');

    const requests = screen.getByRole('region', { name: 'Your DDE access requests' });
    const items = await within(requests).findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Change DDE access: Prairie Valley ClinicReference DDE-2026-000002 · Submitted Nov 23, 2026 · Status: Received',
      'New DDE access: Prairie Valley ClinicReference DDE-2026-000001 · Submitted Nov 23, 2026 · Status: Received',
    ]);
  });

  it('tells the people of a location the feed end-dated that it ended, and on which day (no DDE action then)', async () => {
    loggedIn();
    const [first] = demoAccount.locations;
    server.use(
      http.get(ACCOUNT_ROUTES.account, () =>
        HttpResponse.json({ data: { ...demoAccount, locations: [{ ...first!, endedOn: '2026-11-23' }] } }),
      ),
    );
    renderApp({ path: '/portal', cookies });
    const locations = await screen.findByRole('region', { name: 'Your provider locations and roles' });
    const [item] = await within(locations).findAllByRole('listitem');
    expect(item).toHaveTextContent(/Prairie Valley Clinic.*This location ended on Nov 23, 2026\./);
    const actions = screen.getByRole('region', { name: 'What you can do' });
    expect(within(actions).queryByRole('link', { name: 'Request DDE access' })).toBeNull();
  });

  it('says so when there are no DDE requests and no locations (no DDE action, no console then)', async () => {
    loggedIn(false);
    server.use(http.get(ACCOUNT_ROUTES.account, () => HttpResponse.json({ data: { ...demoAccount, locations: [] } })));
    renderApp({ path: '/portal', cookies });
    expect(await screen.findByText(/No provider locations are linked to your account yet/)).toBeInTheDocument();
    expect(await screen.findByTestId('dde-requests-empty')).toHaveTextContent(
      'You have not sent a DDE access request yet.',
    );
    const actions = screen.getByRole('region', { name: 'What you can do' });
    expect(within(actions).queryByRole('link', { name: 'Request DDE access' })).toBeNull();
    expect(within(actions).queryByRole('link', { name: 'Staff accounts' })).toBeNull();
    expect(within(actions).getByRole('link', { name: 'My account' })).toBeInTheDocument();
  });

  it('shows loading states, then an error with Try again when the requests cannot be loaded', async () => {
    loggedIn();
    let fail = true;
    server.use(
      http.get(DDE_REQUESTS_PATH, () =>
        fail
          ? HttpResponse.json({ errorMessage: 'Service_Unavailable' }, { status: 503 })
          : HttpResponse.json({ data: { requests: [] } }),
      ),
    );
    const { user } = renderApp({ path: '/portal', cookies });
    expect(await screen.findByText('Loading your DDE access requests…')).toBeInTheDocument();
    const requests = await screen.findByRole('region', { name: 'Your DDE access requests' });
    const retry = await within(requests).findByRole('button', { name: 'Try again' }, { timeout: 10_000 });
    fail = false;
    await user.click(retry);
    expect(await screen.findByTestId('dde-requests-empty')).toBeInTheDocument();
  });

  it("the header's portal menu, logged in: Portal home (current), DDE access, My account, Log out; Help with contact and find-admin", async () => {
    loggedIn();
    const { user } = renderApp({ path: '/portal', cookies });
    const nav = await screen.findByRole('navigation', { name: 'Portal' });
    expect(within(nav).getByRole('link', { name: 'Portal home' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'DDE access' })).toHaveAttribute('href', '/dde-access');
    expect(within(nav).getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/account');
    expect(within(nav).getByRole('button', { name: 'Log out' })).toBeInTheDocument();
    // Help stays when logged in: the help desk and the location's administrators, not the login help.
    await user.click(screen.getByRole('button', { name: 'Help' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Contact us', 'Find my administrator']);
  });

  it('Log out from this protected page ends on /logged-out, not on the login it would send a visitor to', async () => {
    loggedIn();
    const { user, router } = renderApp({ path: '/portal', cookies });
    await screen.findByRole('heading', { level: 1, name: 'Portal home' });
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'You have logged out' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Portal' })).toBeNull());
    expect(router.state.location.pathname).toBe('/logged-out');
  });
});
