import { ADMIN_ROUTES } from '@portal/contracts/paths';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { recordRequests, server } from '../../../testing/msw-server';
import { createTestQueryClient } from '../../../testing/render-app';
import { adminQueryKeys, usePendingRequests, usePeopleSearch } from '../api/admin-api';
import { invitationsQueryKey, useInvitations } from '../invitations/invitations-api';
import { recertificationQueryKeys, useDueRecertifications } from '../recertification/recertification-api';

const emptyPage = { items: [], page: 1, pageSize: 25, total: 0, hasMore: false };

function Console() {
  const requests = usePendingRequests(1);
  const people = usePeopleSearch('', 1);
  const invitations = useInvitations();
  const due = useDueRecertifications();
  const shown = [requests, people, invitations, due].every((query) => query.isSuccess);
  return <p>{shown ? 'console drawn' : 'loading'}</p>;
}

/**
 * The console's first screen comes with its data in the page (decision 0060, `adminSessionQueries`): once hydrated,
 * it does not ask the API again for what the server just read (issue 39: that refetch loaded every answer's schemas
 * and rendered the sections again while the page became interactive).
 */
describe('/admin with the data the server put in the page', () => {
  it('asks the API for none of its lists again once hydrated', async () => {
    const client = createTestQueryClient();
    // As the page's server state fills the cache before hydrating (app/server-state).
    client.setQueryData(recertificationQueryKeys.overdue, { loggedIn: true, recertificationOverdue: false });
    client.setQueryData(recertificationQueryKeys.due, { links: [] });
    client.setQueryData(invitationsQueryKey, { invitations: [], locations: [] });
    client.setQueryData(adminQueryKeys.requests(1), emptyPage);
    client.setQueryData(adminQueryKeys.people('', 1), emptyPage);
    const asked = recordRequests();
    server.use(
      http.get(ADMIN_ROUTES.requests, () => HttpResponse.json({ data: emptyPage })),
      http.get(ADMIN_ROUTES.people, () => HttpResponse.json({ data: emptyPage })),
    );
    render(
      <QueryClientProvider client={client}>
        <Console />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('console drawn')).toBeInTheDocument();
    // Long enough for a refetch at mount to have started.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked.map((url) => url.pathname)).toEqual([]);
  });
});
