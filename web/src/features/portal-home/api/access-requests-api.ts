import type { CreateAccessRequest } from '@portal/contracts/access-requests';
import { contractCall } from '../../../lib/contract-call';
import { portalHomeQueryKeys } from './portal-home-api';

export { useOwnAccessRequests } from './portal-home-api';
export const ACCESS_REQUESTS_QUERY_KEY = portalHomeQueryKeys.accessRequests;

const contracts = () => import('@portal/contracts/access-requests');

/** Ask for access to a further location (`POST /api/access-requests`). */
export const requestAccess = (body: CreateAccessRequest) =>
  contractCall(contracts, (c, request) =>
    request(c.ACCESS_REQUEST_ROUTES.mine, { method: 'POST', body, schema: c.AccessRequestResponse.shape.data }),
  );

/** Withdraw one of the user's pending requests. */
export const withdrawAccessRequest = (id: string) =>
  contractCall(contracts, (c, request) =>
    request(c.ACCESS_REQUEST_ROUTES.withdraw.replace(':id', encodeURIComponent(id)), {
      method: 'POST',
      body: {},
      schema: c.AccessRequestResponse.shape.data,
    }),
  );
