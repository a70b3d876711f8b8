import { OPS_ROUTES, opsPath, type OperatorSession, type OpsPerson } from '@portal/contracts/ops';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { errorMessagesRoute } from '../../../testing/content-handlers';
import { server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const USER_ID = '3b0a9c55-1d4e-4f7e-8a53-6c2d9e0f4b12';
const LOCATION_ID = 'c6a1f0d2-5b3e-4a9c-8e7f-1a2b3c4d5e6f';
const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

const operator = (roles: OperatorSession['roles'], idleMinutes = 15): OperatorSession => ({
  operatorId: 'op-1',
  subject: 'helpdesk',
  name: 'Harper Desk',
  email: 'harper.desk@contractor.example',
  roles,
  idleExpiresAt: minutesFromNow(idleMinutes),
  absoluteExpiresAt: minutesFromNow(480),
});

const location = {
  locationId: LOCATION_ID,
  legalName: 'Sunrise Clinic',
  npi: '1234567893',
  ptan: 'P12345',
  jurisdiction: 'J5',
  lineOfBusiness: 'B',
  state: 'IA',
};

const person = (changes: Partial<OpsPerson> = {}): OpsPerson => ({
  userId: USER_ID,
  username: 'pat.office',
  name: 'Pat Office',
  email: 'p•••@example.com',
  phone: null,
  status: 'active',
  statusReasons: [],
  mfa: { authenticator: true, passkeys: 0, recoveryCodesLeft: 8 },
  lastLoginAt: '2026-11-20T15:04:00.000Z',
  createdAt: '2026-01-02T10:00:00.000Z',
  sessions: [],
  locations: [{ ...location, role: 'user', linkStatus: 'active', certifiedUntil: '2027-06-30T00:00:00.000Z' }],
  pendingRequests: [],
  invitations: [],
  auditEvents: [],
  ...changes,
});

function signedIn(session: OperatorSession | null) {
  const reads: number[] = [];
  server.use(
    http.get(OPS_ROUTES.session, () => {
      reads.push(Date.now());
      return session
        ? HttpResponse.json({ data: session })
        : HttpResponse.json({ errorMessage: 'Ops_Sign_In_Required' }, { status: 401 });
    }),
  );
  return reads;
}

describe('the help-desk console', () => {
  it('signed out: the directory sign-in comes back to the page asked for', async () => {
    signedIn(null);
    renderApp({ path: `/ops/people/${USER_ID}` });
    const signIn = await screen.findByRole('link', { name: 'Sign in with the contractor directory' });
    expect(signIn).toHaveAttribute(
      'href',
      `${OPS_ROUTES.signIn}?returnTo=${encodeURIComponent(`/ops/people/${USER_ID}`)}`,
    );
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    // The portal's header is not the console's.
    expect(screen.queryByText('Medicare Provider Portal')).not.toBeInTheDocument();
  });

  it('after a refused sign-in says why, and starts the next one at /ops', async () => {
    signedIn(null);
    server.use(errorMessagesRoute({ Ops_No_Role: 'Your contractor account is not in a help-desk group.' }));
    renderApp({ path: '/ops?signIn=Ops_No_Role' });
    expect(await screen.findByTestId('ops-sign-in-reason')).toHaveTextContent(
      'Your contractor account is not in a help-desk group.',
    );
    expect(screen.getByRole('link', { name: 'Sign in with the contractor directory' })).toHaveAttribute(
      'href',
      `${OPS_ROUTES.signIn}?returnTo=%2Fops`,
    );
  });

  it('opened with a session that has ended: the sign-in screen says so first, as the server draws it', async () => {
    server.use(
      http.get(OPS_ROUTES.session, () => HttpResponse.json({ errorMessage: 'Ops_Session_Expired' }, { status: 401 })),
      errorMessagesRoute({ Ops_Session_Expired: 'Your console session ended. Sign in again to continue.' }),
    );
    renderApp({ path: `/ops/people/${USER_ID}` });
    expect(await screen.findByTestId('ops-sign-in-reason')).toHaveTextContent(
      'Your console session ended. Sign in again to continue.',
    );
    expect(screen.getByRole('link', { name: 'Sign in with the contractor directory' })).toHaveAttribute(
      'href',
      `${OPS_ROUTES.signIn}?returnTo=${encodeURIComponent(`/ops/people/${USER_ID}`)}`,
    );
  });

  it('signed in: the operator and role in the header; a search lists people and locations, or says none', async () => {
    signedIn(operator(['help_desk']));
    const queries: string[] = [];
    server.use(
      http.get(OPS_ROUTES.search, ({ request }) => {
        const q = new URL(request.url).searchParams.get('q') ?? '';
        queries.push(q);
        return HttpResponse.json({
          data:
            q === 'sunrise'
              ? {
                  people: [
                    {
                      userId: USER_ID,
                      name: 'Pat Office',
                      username: 'pat.office',
                      email: 'p•••@example.com',
                      status: 'locked',
                      matchedOn: 'name',
                      locations: [location],
                    },
                  ],
                  locations: [location],
                  truncated: false,
                }
              : { people: [], locations: [], truncated: false },
        });
      }),
    );
    const { user } = renderApp({ path: '/ops' });
    const header = await screen.findByTestId('ops-operator');
    expect(header).toHaveTextContent('Harper Desk');
    expect(header).toHaveTextContent('Help desk');

    // The search box hydrates on its own (a lazy part): it is there once its code has loaded.
    const box = await screen.findByRole('searchbox', { name: 'Username, email, name, NPI or PTAN' });
    await user.type(box, 'x{Enter}');
    expect(await screen.findByText('Type at least 2 characters to search.')).toBeInTheDocument();
    expect(queries).toEqual([]);

    await user.clear(box);
    await user.type(box, 'sunrise{Enter}');
    const people = await screen.findByRole('list', { name: /People/ });
    expect(within(people).getByRole('link', { name: 'Pat Office' })).toHaveAttribute('href', `/ops/people/${USER_ID}`);
    expect(within(people).getByText('Locked')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: /Provider locations/ })).toBeInTheDocument();

    await user.clear(box);
    await user.type(box, 'nobody{Enter}');
    expect(await screen.findByTestId('ops-search-empty')).toHaveTextContent('No person or location matches “nobody”');
    expect(queries).toEqual(['sunrise', 'nobody']);
  });

  it('an MFA reset needs a reason and two identity facts, sends which were checked, and says what happened', async () => {
    signedIn(operator(['help_desk']));
    const bodies: unknown[] = [];
    server.use(
      http.get(opsPath(OPS_ROUTES.person, { userId: USER_ID }), () => HttpResponse.json({ data: person() })),
      http.post(opsPath(OPS_ROUTES.resetMfa, { userId: USER_ID }), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({
          data: person({ mfa: { authenticator: false, passkeys: 0, recoveryCodesLeft: 0 } }),
        });
      }),
    );
    const { user } = renderApp({ path: `/ops/people/${USER_ID}` });
    await screen.findByRole('heading', { level: 1, name: 'Pat Office' });
    // The help desk does not disable accounts.
    expect(screen.queryByRole('button', { name: 'Disable account' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reset two-step verification' }));
    const dialog = await screen.findByRole('dialog', { name: "Reset Pat Office's two-step verification" });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Date of birth on the account' }));
    await user.click(within(dialog).getByRole('button', { name: 'Reset two-step verification' }));
    const summary = await within(dialog).findByTestId('form-error-summary');
    expect(summary).toHaveTextContent('Tick at least two different facts you checked with the caller.');
    expect(summary).toHaveTextContent('Give a reason of 5 to 500 characters');
    expect(bodies).toEqual([]);

    await user.click(within(dialog).getByRole('checkbox', { name: /NPI and PTAN/ }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Lost phone; caller verified.');
    await user.click(within(dialog).getByRole('button', { name: 'Reset two-step verification' }));
    expect(await screen.findByTestId('ops-person-outcome')).toHaveTextContent(
      "Pat Office's two-step verification was reset.",
    );
    // The result takes the focus from the closed dialog, so the keyboard goes on from it.
    await waitFor(() => expect(screen.getByTestId('ops-person-outcome')).toHaveFocus());
    expect(bodies).toEqual([
      { reason: 'Lost phone; caller verified.', identityChecks: ['date_of_birth', 'location_npi_ptan'] },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('ops-mfa-section')).getByText('Not set up')).toBeInTheDocument();
  });

  it('warns two minutes before the idle end the server states; Stay signed in makes a console request', async () => {
    // On the Find page with no search: no page data to read again, so only a request of its own keeps the session.
    signedIn(operator(['supervisor'], 1));
    const keepAlives: number[] = [];
    server.use(
      http.post(OPS_ROUTES.keepAlive, () => {
        keepAlives.push(Date.now());
        return HttpResponse.json({ data: operator(['supervisor'], 15) });
      }),
    );
    const { user } = renderApp({ path: '/ops' });
    const warning = await screen.findByRole('dialog', { name: 'Your console session is about to end' });
    expect(screen.getByTestId('ops-operator')).toHaveTextContent('Supervisor');
    await user.click(within(warning).getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(keepAlives).toHaveLength(1);
  });
});
