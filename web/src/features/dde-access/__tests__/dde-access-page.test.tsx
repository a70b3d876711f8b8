import { screen, waitFor, within } from '@testing-library/react';
import type { EasiLocation } from '@portal/contracts';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { dataAnswer, errorAnswer, errorMessagesRoute } from '../../../testing/content-handlers';
import { answerPostsInTurn, server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { sessionRoute } from '../../../testing/session-handlers';

const cookies = { region: 'J5A', amaApproved: 'true' };
const LOCATION_A = '7d4f6a52-1a77-4c6e-9d4b-2f4f0c6f2a01';
const LOCATION_B = '7d4f6a52-1a77-4c6e-9d4b-2f4f0c6f2a02';
const locations: EasiLocation[] = [
  {
    locationId: LOCATION_A,
    legalName: 'Prairie Clinic',
    npi: '2673073450',
    ptan: '420000',
    jurisdiction: 'J5',
    lineOfBusiness: 'A',
    enrollment: {
      submitterId: 'SUB12345',
      networkServiceVendor: 'Acme Network',
      ddeAccessType: 'inquiry',
      status: 'active',
    },
  },
  {
    locationId: LOCATION_B,
    legalName: 'Lakeside Therapy',
    npi: '1369535426',
    ptan: '850001',
    jurisdiction: 'J5',
    lineOfBusiness: 'B',
    enrollment: null,
  },
];

function loggedInWith(easi: EasiLocation[] | (() => Response)) {
  server.use(
    sessionRoute({ loggedIn: true, username: 'demo.user.j5', idleSecondsLeft: 1800, absoluteSecondsLeft: 40_000 }),
    http.post('/api/providers/get-easi', () => (typeof easi === 'function' ? easi() : dataAnswer({ locations: easi }))),
  );
}

/** Answers the submits with `answers` in turn (the last one repeats) and records their bodies. */
const submitAnswers = (...answers: (() => Response)[]) =>
  answerPostsInTurn<Record<string, unknown>>('/api/dde-access/submit', answers);
const sent = () => dataAnswer({ referenceNumber: 'DDE-2026-000123', submittedAt: '2026-11-23T16:00:00.000Z' });

describe('/dde-access (docs/requirements/portal.md#dde-access-request)', () => {
  it('without a login redirects to /login?next=/dde-access', async () => {
    const { router } = renderApp({ path: '/dde-access', cookies });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?next=%2Fdde-access');
  });

  it(
    'choosing a location pre-fills its enrollment facts; the answer is the reference number, focused',
    { timeout: 30_000 },
    async () => {
      loggedInWith(locations);
      const bodies = submitAnswers(sent);
      const { user } = renderApp({ path: '/dde-access', cookies });
      await user.click(await screen.findByRole('radio', { name: /Prairie Clinic/ }));
      expect(screen.getByRole('textbox', { name: /submitter id/i })).toHaveValue('SUB12345');
      expect(screen.getByRole('textbox', { name: /network service vendor/i })).toHaveValue('Acme Network');
      expect(screen.getByRole('combobox', { name: /dde access type/i })).toHaveValue('inquiry');
      expect(screen.getByRole('radio', { name: 'Change my DDE access' })).toBeChecked();
      expect(screen.getByTestId('dde-enrollment')).toHaveTextContent('status Active');

      // Another location without an enrollment on file empties what the first one filled in.
      await user.click(screen.getByRole('radio', { name: /Lakeside Therapy/ }));
      expect(screen.getByRole('textbox', { name: /submitter id/i })).toHaveValue('');
      expect(screen.getByRole('radio', { name: 'New DDE access' })).toBeChecked();
      await user.click(screen.getByRole('radio', { name: /Prairie Clinic/ }));

      await user.selectOptions(screen.getByRole('combobox', { name: /dde access type/i }), 'inquiry-and-claims');
      await user.click(screen.getByRole('button', { name: 'Send request' }));
      const heading = await screen.findByRole('heading', { name: 'Request sent' });
      await waitFor(() => expect(heading).toHaveFocus());
      expect(screen.getByTestId('dde-reference')).toHaveTextContent('DDE-2026-000123');
      expect(screen.getByText(/We emailed a confirmation/)).toBeInTheDocument();
      expect(bodies).toEqual([
        {
          idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
          locationId: LOCATION_A,
          requestType: 'change',
          ddeAccessType: 'inquiry-and-claims',
          submitterId: 'SUB12345',
          networkServiceVendor: 'Acme Network',
        },
      ]);
    },
  );

  it(
    'a retry after a network error sends the same idempotency key; a new request gets a new one',
    { timeout: 30_000 },
    async () => {
      loggedInWith([locations[0]!]);
      const bodies = submitAnswers(() => HttpResponse.error(), sent, sent);
      const { user } = renderApp({ path: '/dde-access', cookies });
      // The only location is chosen already.
      expect(await screen.findByRole('radio', { name: /Prairie Clinic/ })).toBeChecked();
      await user.click(screen.getByRole('button', { name: 'Send request' }));
      expect(await screen.findByTestId('form-error-summary')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Send request' }));
      await screen.findByRole('heading', { name: 'Request sent' });
      expect(bodies).toHaveLength(2);
      expect(bodies[1]!.idempotencyKey).toBe(bodies[0]!.idempotencyKey);

      await user.click(screen.getByRole('button', { name: 'Send another request' }));
      await user.click(await screen.findByRole('button', { name: 'Send request' }));
      await screen.findByRole('heading', { name: 'Request sent' });
      expect(bodies).toHaveLength(3);
      expect(bodies[2]!.idempotencyKey).not.toBe(bodies[0]!.idempotencyKey);
    },
  );

  it(
    'a pending enrollment preselects nothing; comments count down; the answer says what happens next (issue 22)',
    { timeout: 30_000 },
    async () => {
      const pending: EasiLocation = {
        ...locations[0]!,
        enrollment: { ...locations[0]!.enrollment!, status: 'pending' },
      };
      loggedInWith([pending]);
      const bodies = submitAnswers(sent);
      const { user } = renderApp({ path: '/dde-access', cookies });
      expect(await screen.findByRole('radio', { name: /Prairie Clinic/ })).toBeChecked();
      expect(screen.getByTestId('dde-enrollment')).toHaveTextContent('still pending: choose what you need');
      for (const name of ['New DDE access', 'Change my DDE access', 'Remove my DDE access'])
        expect(screen.getByRole('radio', { name })).not.toBeChecked();

      const comments = screen.getByRole('textbox', { name: /comments/i });
      expect(screen.getByTestId('dde-comments-counter')).toHaveTextContent('500 characters left (up to 500)');
      await user.type(comments, 'Billing starts on Monday.');
      expect(screen.getByTestId('dde-comments-counter')).toHaveTextContent('475 characters left (up to 500)');
      expect(comments).toHaveAccessibleDescription('475 characters left (up to 500)');

      await user.click(screen.getByRole('radio', { name: 'New DDE access' }));
      await user.click(screen.getByRole('button', { name: 'Send request' }));
      await screen.findByRole('heading', { name: 'Request sent' });
      expect(screen.getByRole('heading', { name: 'What happens next' })).toBeInTheDocument();
      expect(screen.getByTestId('dde-next-steps')).toHaveTextContent(/We email you when access is granted/);
      expect(bodies[0]).toMatchObject({ requestType: 'new', comments: 'Billing starts on Monday.' });
    },
  );

  it('missing details: the summary lists them and nothing is sent', async () => {
    loggedInWith([locations[1]!]);
    const bodies = submitAnswers(sent);
    const { user } = renderApp({ path: '/dde-access', cookies });
    await user.click(await screen.findByRole('button', { name: 'Send request' }));
    const summary = await screen.findByTestId('form-error-summary');
    expect(
      within(summary)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([
      'Choose the DDE access type.',
      'Enter the submitter ID: 1 to 15 letters or numbers.',
      'Enter the network service vendor (up to 100 characters).',
    ]);
    expect(bodies).toEqual([]);
  });

  it('a refused location shows the CMS text of the error code', { timeout: 30_000 }, async () => {
    loggedInWith([locations[0]!]);
    submitAnswers(() => errorAnswer(403, 'Dde_Location_Not_Linked'));
    server.use(errorMessagesRoute({ Dde_Location_Not_Linked: 'Only for locations your account is linked to.' }));
    const { user } = renderApp({ path: '/dde-access', cookies });
    await user.click(await screen.findByRole('button', { name: 'Send request' }));
    expect(
      await within(await screen.findByTestId('form-error-summary')).findByText(
        'Only for locations your account is linked to.',
      ),
    ).toBeInTheDocument();
  });

  it('a user linked to no location is told how to get linked', async () => {
    loggedInWith([]);
    renderApp({ path: '/dde-access', cookies });
    expect(await screen.findByText(/not linked to a provider location/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'find my administrator' })).toHaveAttribute('href', '/find-admin');
  });
});
