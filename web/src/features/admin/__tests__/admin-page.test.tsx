import { ACCOUNT_ROUTES } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultErrorMessages } from '../../../testing/content-handlers';
import { server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { adminPaths, type AdminAccessRequest, type AdminPerson } from '../api/admin-api';

const cookies = { region: 'J5B', amaApproved: 'true' };
const loggedIn = () =>
  server.use(
    http.get('/api/session', () => HttpResponse.json({ data: { loggedIn: true, username: 'demo.admin.j5' } })),
  );
const ok = (data: unknown) => () => HttpResponse.json({ data });
const fail = (status: number, code: string) => () => HttpResponse.json({ errorMessage: code }, { status });

/** Answers `route`'s POSTs with the answers in turn (the last one again after that), recording each body. */
function posts(route: string, answers: (() => Response)[]) {
  const bodies: unknown[] = [];
  server.use(
    http.post(route, async ({ request }) => {
      bodies.push(await request.json());
      return answers[Math.min(bodies.length - 1, answers.length - 1)]!();
    }),
  );
  return bodies;
}
/** Answers `route`'s GETs with the answers in turn, recording each query string. */
function gets(route: string, answers: (() => Response)[]) {
  const queries: string[] = [];
  server.use(
    http.get(route, ({ request }) => {
      queries.push(new URL(request.url).search);
      return answers[Math.min(queries.length - 1, answers.length - 1)]!();
    }),
  );
  return queries;
}

const pending: AdminAccessRequest = {
  requestId: 'req-1',
  name: 'Jordan User J8',
  username: 'demo.user.j8',
  email: 'demo.user.j8@example.com',
  locationId: 'loc-1',
  legalName: 'Prairie Valley Clinic',
  npi: '1234567893',
  createdAt: '2026-11-20T15:00:00.000Z',
};
const person: AdminPerson = {
  userId: 'user-1',
  name: 'Jordan User J5',
  username: 'demo.user.j5',
  email: 'demo.user.j5@example.com',
  status: 'active',
  lastLoginAt: '2026-11-25T09:30:00.000Z',
  mfaEnrolled: true,
  locations: [
    {
      locationId: 'loc-1',
      legalName: 'Prairie Valley Clinic',
      npi: '1234567893',
      role: 'user',
      certifiedUntil: '2027-11-20T00:00:00.000Z',
      status: 'active',
    },
  ],
};

function renderConsole() {
  loggedIn();
  return renderApp({ path: '/admin', cookies });
}

describe('/admin, the administrator console (docs/requirements/staff-accounts.md)', { timeout: 30_000 }, () => {
  it('without a login redirects to /login?next=/admin', async () => {
    const { router } = renderApp({ path: '/admin', cookies });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?next=%2Fadmin');
  });

  it('lists pending requests; Approve asks for the role, sends it, announces the outcome and reloads the list', async () => {
    gets(adminPaths.requests, [ok({ requests: [pending] }), ok({ requests: [] })]);
    gets(adminPaths.people, [ok({ people: [], total: 0 })]);
    const approvals = posts(adminPaths.approve('req-1'), [ok({ approved: true })]);
    const { user } = renderConsole();
    const requests = await screen.findByRole('region', { name: 'Access requests' });
    const row = await within(requests).findByRole('row', { name: /demo\.user\.j8/ });
    expect(row).toHaveTextContent(
      'Jordan User J8demo.user.j8demo.user.j8@example.comPrairie Valley Clinic (NPI 1234567893)Nov 20, 2026',
    );

    await user.click(within(row).getByRole('button', { name: 'Approve Jordan User J8' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve access' });
    expect(dialog).toHaveAccessibleDescription(
      /Jordan User J8 \(demo\.user\.j8\) gets access to Prairie Valley Clinic/,
    );
    await waitFor(() => expect(within(dialog).getByRole('radio', { name: /^User/ })).toHaveFocus());
    await user.click(within(dialog).getByRole('radio', { name: /^Administrator/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));

    expect(
      await within(screen.getByTestId('requests-status')).findByText(
        'Approved: Jordan User J8 is now an administrator of Prairie Valley Clinic. We emailed them.',
      ),
    ).toBeInTheDocument();
    expect(approvals).toEqual([{ role: 'administrator' }]);
    expect(await within(requests).findByTestId('requests-empty')).toHaveTextContent(
      'No one is waiting for access to your locations.',
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Access requests' })).toHaveFocus());
  });

  it('Deny sends the optional reason; a refusal of the server stays in the dialog', async () => {
    gets(adminPaths.requests, [ok({ requests: [pending] })]);
    gets(adminPaths.people, [ok({ people: [], total: 0 })]);
    const denials = posts(adminPaths.deny('req-1'), [fail(409, 'Request_Already_Decided'), ok({ denied: true })]);
    const { user } = renderConsole();
    const requests = await screen.findByRole('region', { name: 'Access requests' });
    await user.click(await within(requests).findByRole('button', { name: 'Deny Jordan User J8' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deny access' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason (optional)' }), 'Not our office.');
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    expect(
      await within(screen.getByTestId('requests-status')).findByText(
        'Denied: Jordan User J8 does not get access to Prairie Valley Clinic. We emailed them.',
      ),
    ).toBeInTheDocument();
    expect(denials).toEqual([{ reason: 'Not our office.' }, { reason: 'Not our office.' }]);
  });

  it('searches people and shows status, last login, MFA, locations with role and certified-until', async () => {
    gets(adminPaths.requests, [ok({ requests: [] })]);
    const searches = gets(adminPaths.people, [ok({ people: [person], total: 1 })]);
    const { user } = renderConsole();
    const people = await screen.findByRole('region', { name: 'People of my locations' });
    await user.type(within(people).getByRole('searchbox', { name: 'Name, username or email' }), ' j5 ');
    await user.click(within(people).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches.at(-1)).toBe('?q=j5'));
    const card = await within(people).findByRole('listitem', { name: 'Jordan User J5' });
    expect(card).toHaveTextContent('StatusActive');
    expect(card).toHaveTextContent('Two-step verificationSet up');
    expect(card).toHaveTextContent(/Last loginNov 25, 2026/);
    expect(within(card).getByRole('row', { name: /Prairie Valley Clinic/ })).toHaveTextContent(
      'Prairie Valley Clinic (NPI 1234567893)UserNov 20, 2027',
    );
    expect(within(people).getByTestId('people-count')).toHaveTextContent('1 person match "j5".');
  });

  it('an action asks for confirmation; "re-authentication required" opens the password dialog, then it is sent again', async () => {
    gets(adminPaths.requests, [ok({ requests: [] })]);
    gets(adminPaths.people, [ok({ people: [person], total: 1 })]);
    const resets = posts(adminPaths.action('user-1', 'reset-mfa'), [
      fail(401, 'Reauthentication_Required'),
      ok({ reset: true }),
    ]);
    const reauths = posts(ACCOUNT_ROUTES.reauthenticate, [ok({ recentAuthenticationSecondsLeft: 1200 })]);
    const { user } = renderConsole();
    const card = await screen.findByRole('listitem', { name: 'Jordan User J5' });
    await user.click(within(card).getByRole('button', { name: 'Reset two-step verification' }));
    const confirm = await screen.findByRole('dialog', { name: "Reset Jordan User J5's two-step verification?" });
    expect(confirm).toHaveAccessibleDescription(/They set up a new authenticator at their next login/);
    await user.click(within(confirm).getByRole('button', { name: 'Reset two-step verification' }));

    const reauth = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.type(within(reauth).getByLabelText(/^password/i), 'Harbor lantern quartz meadow');
    await user.click(within(reauth).getByRole('button', { name: 'Confirm' }));
    expect(
      await within(screen.getByTestId('people-status')).findByText(
        "Jordan User J5's two-step verification was reset. They set it up again at their next login.",
      ),
    ).toBeInTheDocument();
    expect(reauths).toEqual([{ password: 'Harbor lantern quartz meadow' }]);
    expect(resets).toHaveLength(2);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a refused action is shown in the section with the CMS text; loading, then an error with Try again', async () => {
    let failing = true;
    server.use(
      http.get(adminPaths.requests, () =>
        failing
          ? HttpResponse.json({ errorMessage: 'Service_Unavailable' }, { status: 503 })
          : HttpResponse.json({ data: { requests: [] } }),
      ),
    );
    gets(adminPaths.people, [ok({ people: [person], total: 1 })]);
    const changes = posts(adminPaths.action('user-1', 'make-admin'), [fail(400, 'Current_Password_Invalid')]);
    const { user } = renderConsole();
    expect(await screen.findByRole('progressbar', { name: 'Loading the access requests' })).toBeInTheDocument();
    const requests = await screen.findByRole('region', { name: 'Access requests' });
    const retry = await within(requests).findByRole('button', { name: 'Try again' }, { timeout: 10_000 });
    failing = false;
    await user.click(retry);
    expect(await within(requests).findByTestId('requests-empty')).toBeInTheDocument();

    const people = screen.getByRole('region', { name: 'People of my locations' });
    const card = await within(people).findByRole('listitem', { name: 'Jordan User J5' });
    await user.click(within(card).getByRole('button', { name: 'Make administrator' }));
    const confirm = await screen.findByRole('dialog', {
      name: 'Make Jordan User J5 an administrator of Prairie Valley Clinic?',
    });
    await user.click(within(confirm).getByRole('button', { name: 'Make administrator' }));
    expect(await within(people).findByRole('alert')).toHaveTextContent(defaultErrorMessages.Current_Password_Invalid!);
    expect(changes).toEqual([{ locationId: 'loc-1' }]);
    expect(within(screen.getByTestId('people-status')).queryByText(/administrator/)).toBeNull();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
