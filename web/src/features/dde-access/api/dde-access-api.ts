import type { DdeSubmitRequest } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { contractCall } from '../../../lib/contract-call';

// The paths and answers' schemas (zod), loaded when a call is made (lib/contract-call.ts).
const contracts = () => import('@portal/contracts/dde-access');
const EASI_QUERY_KEY = ['dde-access', 'easi'] as const;

/**
 * The page's first read, made by the server with the request's session into the page it renders
 * (docs/decisions/0034-server-rendered-portal-pages.md): the form is drawn with the locations, as it stays.
 */
export async function ddeSessionQueries() {
  const { GET_EASI_PATH } = await contracts();
  return [{ queryKey: EASI_QUERY_KEY, path: GET_EASI_PATH, method: 'POST' as const }];
}

/** The locations the user is linked to, each with its EDI/DDE enrollment facts (docs/requirements/portal.md#dde-access-request). */
export const getEasiQueryOptions = () =>
  queryOptions({
    queryKey: EASI_QUERY_KEY,
    queryFn: ({ signal }) =>
      contractCall(contracts, (c, request) =>
        request(c.GET_EASI_PATH, { method: 'POST', body: {}, schema: c.GetEasiResponse.shape.data, signal }),
      ),
    staleTime: 60_000,
  });

export function useEasiLocations() {
  return useQuery(getEasiQueryOptions());
}

export const submitDdeRequest = (body: DdeSubmitRequest) =>
  contractCall(contracts, (c, request) =>
    request(c.DDE_SUBMIT_PATH, { method: 'POST', body, schema: c.DdeSubmitResponse.shape.data }),
  );
