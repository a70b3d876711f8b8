import { ACCESS_REQUEST_ROUTES, type AccessRequestSummary } from '@portal/contracts/access-requests';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const cookies = { region: 'J5B', amaApproved: 'true' };
const loggedIn = () =>
  server.use(http.get('/api/session', () => HttpResponse.json({ data: { loggedIn: true, username: 'dana.r' } })));

const summary = (id: string, extra: Partial<AccessRequestSummary> = {}): AccessRequestSummary => ({
  id,
  status: 'pending',
  location: { legalName: `Clinic ${id}`, npi: '1015206455', jurisdiction: 'J5', lineOfBusiness: 'A' },
  requestedAt: '2026-11-23T15:00:00.000Z',
  decidedAt: null,
  reason: null,
  ...extra,
});

describe("the portal home's access requests (docs/requirements/staff-accounts.md#end-users)", () => {
  it('lists each request with its status; Withdraw asks first, then withdraws the pending one', async () => {
    loggedIn();
    let requests = [
      summary('a'),
      summary('b', { status: 'denied', reason: 'Not on our staff list.', decidedAt: '2026-11-24T10:00:00.000Z' }),
    ];
    const withdrawn: string[] = [];
    server.use(
      http.get(ACCESS_REQUEST_ROUTES.mine, () => HttpResponse.json({ data: { requests } })),
      http.post(ACCESS_REQUEST_ROUTES.withdraw, ({ params }) => {
        withdrawn.push(String(params.id));
        requests = requests.map((r) => (r.id === params.id ? { ...r, status: 'withdrawn' } : r));
        return HttpResponse.json({ data: { request: requests[0] } });
      }),
    );
    const { user } = renderApp({ path: '/portal', cookies });
    const section = await screen.findByRole('region', { name: 'Access requests' });
    const items = await within(section).findAllByTestId('access-request');
    expect(items[0]).toHaveTextContent('Clinic a');
    expect(items[0]).toHaveTextContent('Status: Pending');
    expect(items[1]).toHaveTextContent('Status: Denied');
    expect(items[1]).toHaveTextContent('Reason: Not on our staff list.');
    // Only the pending one can be withdrawn.
    expect(within(items[1]!).queryByRole('button', { name: /Withdraw/ })).toBeNull();

    await user.click(within(items[0]!).getByRole('button', { name: 'Withdraw the request for Clinic a' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw this access request?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(withdrawn).toEqual([]);

    await user.click(within(items[0]!).getByRole('button', { name: 'Withdraw the request for Clinic a' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Withdraw this access request?' })).getByRole('button', {
        name: 'Withdraw request',
      }),
    );
    await waitFor(() => expect(withdrawn).toEqual(['a']));
    await waitFor(() =>
      expect(within(section).getAllByTestId('access-request-status')[0]).toHaveTextContent('Status: Withdrawn'),
    );
  });

  it('requests access to another location; a refusal shows its message', async () => {
    loggedIn();
    const sent: unknown[] = [];
    server.use(
      http.post(ACCESS_REQUEST_ROUTES.mine, async ({ request }) => {
        const body = await request.json();
        sent.push(body);
        if (sent.length > 1) return HttpResponse.json({ errorMessage: 'Access_Request_Pending' }, { status: 400 });
        return HttpResponse.json({ data: { request: summary('n') } }, { status: 201 });
      }),
    );
    const { user } = renderApp({ path: '/portal', cookies });
    const section = await screen.findByRole('region', { name: 'Access requests' });
    expect(await within(section).findByTestId('access-requests-empty')).toBeInTheDocument();
    const form = within(section).getByRole('form', { name: 'Request access to another location' });
    await user.type(within(form).getByRole('textbox', { name: /NPI/ }), '1015206455');
    await user.type(within(form).getByRole('textbox', { name: /PTAN/ }), '750043');
    await user.type(within(form).getByRole('textbox', { name: /TIN/ }), '58-2988064');
    await user.click(within(form).getByRole('button', { name: 'Request access' }));
    expect(await within(section).findByText('Your request for Clinic n is sent to its administrator.')).toBeVisible();
    expect(sent).toEqual([
      { npi: '1015206455', ptan: '750043', tin: '582988064', jurisdiction: 'J5', lineOfBusiness: 'B' },
    ]);

    await user.type(within(form).getByRole('textbox', { name: /NPI/ }), '1015206455');
    await user.type(within(form).getByRole('textbox', { name: /PTAN/ }), '750043');
    await user.type(within(form).getByRole('textbox', { name: /TIN/ }), '58-2988064');
    await user.click(within(form).getByRole('button', { name: 'Request access' }));
    expect(await within(form).findByTestId('form-error-summary')).toBeInTheDocument();
    expect(sent).toHaveLength(2);
  });
});
