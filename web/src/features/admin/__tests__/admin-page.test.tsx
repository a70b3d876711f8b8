import { ACCOUNT_ROUTES, type AdminAccessRequest, type PersonSummary } from '@portal/contracts';
import { ADMIN_INVITATIONS_PATH } from '@portal/contracts/invitations';
import { ADMIN_ROUTES, adminPath } from '@portal/contracts/paths';
import { RECERTIFICATIONS_PATH } from '@portal/contracts/recertification';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultErrorMessages } from '../../../testing/content-handlers';
import { answerPostsInTurn, server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const cookies = { region: 'J5B', amaApproved: 'true' };
const loggedIn = (administersLocation = true) =>
  server.use(
    http.get('/api/session', () =>
      HttpResponse.json({ data: { loggedIn: true, username: 'demo.admin.j5', administersLocation } }),
    ),
  );
const REQUEST_ID = '7d1c6f1e-8f7a-4c41-9d7e-2f1f0f6b5a01';
const USER_ID = '3b0a9c55-1d4e-4f7e-8a53-6c2d9e0f4b12';
const LOCATION_ID = 'c6a1f0d2-5b3e-4a9c-8e7f-1a2b3c4d5e6f';
const paths = {
  requests: ADMIN_ROUTES.requests,
  people: ADMIN_ROUTES.people,
  approve: adminPath(ADMIN_ROUTES.approveRequest, { requestId: REQUEST_ID }),
  deny: adminPath(ADMIN_ROUTES.denyRequest, { requestId: REQUEST_ID }),
  resetMfa: adminPath(ADMIN_ROUTES.resetPersonMfa, { userId: USER_ID }),
  setRole: adminPath(ADMIN_ROUTES.setPersonRole, { userId: USER_ID, locationId: LOCATION_ID }),
};
/** A list answer of one page. */
const page = (items: unknown[]) => ({ items, page: 1, pageSize: 25, total: items.length, hasMore: false });
const ok = (data: unknown) => () => HttpResponse.json({ data });
const fail = (status: number, code: string) => () => HttpResponse.json({ errorMessage: code }, { status });

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
  requestId: REQUEST_ID,
  userId: '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a',
  name: 'Jordan User J8',
  username: 'demo.user.j8',
  email: 'demo.user.j8@example.com',
  locationId: LOCATION_ID,
  legalName: 'Prairie Valley Clinic',
  npi: '1234567893',
  ptan: 'J5B00001',
  requestedAt: '2026-11-20T15:00:00.000Z',
};
const person: PersonSummary = {
  userId: USER_ID,
  name: 'Jordan User J5',
  username: 'demo.user.j5',
  email: 'demo.user.j5@example.com',
  status: 'active',
  lastLoginAt: '2026-11-25T09:30:00.000Z',
  mfaEnrolled: true,
  unlockNeedsHelpDesk: false,
  locations: [
    {
      locationId: LOCATION_ID,
      legalName: 'Prairie Valley Clinic',
      npi: '1234567893',
      role: 'user',
      certifiedUntil: '2027-11-20T00:00:00.000Z',
      status: 'active',
    },
  ],
  accountActions: true,
  self: false,
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
    gets(paths.requests, [ok(page([pending])), ok(page([]))]);
    gets(paths.people, [ok(page([]))]);
    const approvals = answerPostsInTurn(paths.approve, [ok({ requestId: REQUEST_ID, status: 'approved' })]);
    const { user } = renderConsole();
    const requests = await screen.findByRole('region', { name: 'Access requests' });
    const row = await within(requests).findByRole('row', { name: /demo\.user\.j8/ });
    const table = within(requests).getByRole('table', { name: 'Pending access requests' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Username', 'Email', 'Location', 'Requested', 'Decision']);
    // The header's menu leads here for an administrator of a location, marked as the current page.
    const menu = screen.getByRole('navigation', { name: 'Portal' });
    expect(within(menu).getByRole('link', { name: 'Staff accounts' })).toHaveAttribute('aria-current', 'page');
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
    gets(paths.requests, [ok(page([pending]))]);
    gets(paths.people, [ok(page([]))]);
    const denials = answerPostsInTurn(paths.deny, [
      fail(409, 'Access_Request_Not_Pending'),
      ok({ requestId: REQUEST_ID, status: 'denied' }),
    ]);
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
    gets(paths.requests, [ok(page([]))]);
    const searches = gets(paths.people, [ok(page([person]))]);
    const { user } = renderConsole();
    const people = await screen.findByRole('region', { name: 'People of my locations' });
    await user.type(within(people).getByRole('searchbox', { name: 'Name, username or email' }), ' j5 ');
    await user.click(within(people).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches.at(-1)).toBe('?q=j5&page=1'));
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
    gets(paths.requests, [ok(page([]))]);
    gets(paths.people, [ok(page([person]))]);
    const resets = answerPostsInTurn(paths.resetMfa, [
      fail(403, 'Reauthentication_Required'),
      ok({
        person: {
          ...person,
          mfaEnrolled: false,
          locked: false,
          passkeyCount: 0,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      }),
    ]);
    const reauths = answerPostsInTurn(ACCOUNT_ROUTES.reauthenticate, [ok({ recentAuthenticationSecondsLeft: 1200 })]);
    const { user } = renderConsole();
    const card = await screen.findByRole('listitem', { name: 'Jordan User J5' });
    await user.click(within(card).getByRole('button', { name: 'Reset two-step verification' }));
    const confirm = await screen.findByRole('dialog', { name: "Reset Jordan User J5's two-step verification?" });
    expect(confirm).toHaveAccessibleDescription(/They set up a new authenticator at their next login/);
    await user.click(within(confirm).getByRole('button', { name: 'Reset two-step verification' }));

    const reauth = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.type(within(reauth).getByLabelText(/^password/i), 'Harbor lantern quartz meadow');
    await user.click(within(reauth).getByRole('button', { name: 'Confirm' }));
    // The result shows on the person's card, next to the button that was used.
    expect(
      await within(within(card).getByTestId('person-status')).findByText(
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
      http.get(paths.requests, () =>
        failing
          ? HttpResponse.json({ errorMessage: 'Service_Unavailable' }, { status: 503 })
          : HttpResponse.json({ data: page([]) }),
      ),
    );
    gets(paths.people, [ok(page([person]))]);
    const changes = answerPostsInTurn(paths.setRole, [fail(400, 'Current_Password_Invalid')]);
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
    // The refusal shows on the card of the person, next to the control, as an alert.
    expect(await within(card).findByRole('alert')).toHaveTextContent(defaultErrorMessages.Current_Password_Invalid!);
    expect(changes).toEqual([{ role: 'administrator' }]);
    expect(within(screen.getByTestId('people-status')).queryByText(/administrator/)).toBeNull();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('offers only what will be allowed: nothing on my own card, no account actions for a person of another location', async () => {
    const me: PersonSummary = {
      ...person,
      userId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      name: 'Alex Admin',
      self: true,
    };
    const shared: PersonSummary = {
      ...person,
      userId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      name: 'Sam Shared',
      accountActions: false,
      lastLoginAt: null,
    };
    gets(paths.requests, [ok(page([]))]);
    gets(paths.people, [ok(page([me, shared]))]);
    const { user } = renderConsole();
    const mine = await screen.findByRole('listitem', { name: /Alex Admin/ });
    expect(within(mine).queryAllByRole('button')).toEqual([]);
    expect(mine).toHaveTextContent('This is your account. Another administrator of your location can change');

    const theirs = screen.getByRole('listitem', { name: 'Sam Shared' });
    expect(within(theirs).queryByRole('button', { name: 'Disable account' })).toBeNull();
    expect(within(theirs).queryByRole('button', { name: 'Reset two-step verification' })).toBeNull();
    expect(within(theirs).getByRole('button', { name: 'Remove from location' })).toBeInTheDocument();
    expect(theirs).toHaveTextContent('also works for a provider location you do not manage');

    // Promoting someone who never logged in says what it means for the 5 places.
    await user.click(within(theirs).getByRole('button', { name: 'Make administrator' }));
    const confirm = await screen.findByRole('dialog', { name: /^Make Sam Shared an administrator/ });
    expect(confirm).toHaveAccessibleDescription(/has never logged in: they take one of the 5 administrator places/);
  });

  it('lists open invitations and recertifications due in tables with their column headings', async () => {
    gets(paths.requests, [ok(page([]))]);
    gets(paths.people, [ok(page([]))]);
    gets(ADMIN_INVITATIONS_PATH, [
      ok({
        invitations: [
          {
            id: '5f0e7d6c-4b3a-4291-8f7e-6d5c4b3a2918',
            locationId: LOCATION_ID,
            locationName: 'Prairie Valley Clinic',
            email: 'new.hire@example.com',
            role: 'user',
            createdAt: '2026-11-24T12:00:00.000Z',
            expiresAt: '2026-12-01T12:00:00.000Z',
            invitedBy: 'Avery Admin J5',
          },
        ],
        locations: [{ locationId: LOCATION_ID, legalName: 'Prairie Valley Clinic', npi: '1234567893' }],
      }),
    ]);
    gets(RECERTIFICATIONS_PATH, [
      ok({
        links: [
          {
            userId: USER_ID,
            locationId: LOCATION_ID,
            name: 'Jordan User J5',
            username: 'demo.user.j5',
            legalName: 'Prairie Valley Clinic',
            npi: '1234567893',
            role: 'user',
            certifiedUntil: '2026-11-20T00:00:00.000Z',
            overdue: true,
          },
        ],
      }),
    ]);
    renderConsole();
    const headings = (table: HTMLElement) =>
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent);

    const invitations = await screen.findByRole('region', { name: 'Invitations' });
    const invitationsTable = await within(invitations).findByRole('table', { name: 'Open invitations' });
    expect(headings(invitationsTable)).toEqual(['Email', 'Location', 'Role', 'Invited by', 'Expires', 'Action']);
    expect(within(invitationsTable).getByRole('row', { name: /new\.hire@example\.com/ })).toHaveTextContent(
      'new.hire@example.comPrairie Valley ClinicUserAvery Admin J5Dec 1, 2026Withdraw',
    );

    const recertification = screen.getByRole('region', { name: 'Recertification' });
    const dueTable = await within(recertification).findByRole('table', { name: 'Access due for recertification' });
    expect(headings(dueTable)).toEqual(['Name', 'Username', 'Location', 'Role', 'Certified until', 'Decision']);
    const due = within(dueTable).getByRole('row', { name: /Jordan User J5/ });
    expect(due).toHaveTextContent(
      'Jordan User J5demo.user.j5Prairie Valley Clinic (NPI 1234567893)UserOverdue since Nov 20, 2026: access suspended',
    );
    expect(
      within(due).getByRole('radiogroup', { name: 'Decision for Jordan User J5 at Prairie Valley Clinic' }),
    ).toBeInTheDocument();
  });

  it('tells a logged-in user who administers no location that the console is not theirs, and asks the API nothing', async () => {
    const lists = gets(paths.requests, [ok(page([]))]);
    loggedIn(false);
    renderApp({ path: '/admin', cookies });
    expect(await screen.findByTestId('admin-not-administrator')).toHaveTextContent(
      'Only an administrator of a provider location manages its staff accounts',
    );
    expect(screen.queryByRole('region', { name: 'Access requests' })).toBeNull();
    expect(lists).toEqual([]);
    const menu = screen.getByRole('navigation', { name: 'Portal' });
    expect(within(menu).queryByRole('link', { name: 'Staff accounts' })).toBeNull();
  });
});
