import {
  DDE_SUBMIT_PATH,
  DdeSubmitResponse,
  GET_EASI_PATH,
  GetEasiResponse,
  type DdeSubmitRequest,
} from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** The locations the user is linked to, each with its EDI/DDE enrollment facts (docs/requirements/portal.md#dde-access-request). */
export const getEasiQueryOptions = () =>
  queryOptions({
    queryKey: ['dde-access', 'easi'],
    queryFn: ({ signal }) =>
      apiRequest(GET_EASI_PATH, { method: 'POST', body: {}, schema: GetEasiResponse.shape.data, signal }),
    staleTime: 60_000,
  });

export function useEasiLocations() {
  return useQuery(getEasiQueryOptions());
}

export const submitDdeRequest = (body: DdeSubmitRequest) =>
  apiRequest(DDE_SUBMIT_PATH, { method: 'POST', body, schema: DdeSubmitResponse.shape.data });
