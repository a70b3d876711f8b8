import {
  OPS_QUERY_MAX,
  OPS_QUERY_MIN,
  OPS_ROUTES,
  OPS_SIGN_IN_REFUSAL_PARAM,
  opsPath,
} from '@portal/contracts/ops-routes';
import type { OperatorSession } from '@portal/contracts/ops';
import { OPS_PAGE_PATHS } from '@portal/contracts/paths';
import type { QueryClient } from '@tanstack/react-query';
import { readApiAnswer } from '../../../lib/api-client';
import { getErrorMessageQueryOptions } from '../../../lib/error-messages';
import { opsQueryKeys, readConsoleSession, type ConsoleSession } from './ops-api';

/** How the portal server answers one of its own API reads in-process (entry-server.tsx). */
type ApiTransport = (path: string) => Promise<{ status: number; payload: unknown }>;

/**
 * What a console page's first screen shows, read by the server through the console's own API with the request's
 * cookie (docs/decisions/0088), into the page's query cache under the keys the pages read: the session first (the
 * same lookup as every console call); signed in, the page's record (a person, a location, or the search in `?q=`);
 * not signed in, the text of why (a session that ended, a refused sign-in). A read that fails is left to the browser.
 */
export async function readConsolePage(
  queryClient: QueryClient,
  readApi: ApiTransport,
  page: { pathname: string; params: Record<string, string | undefined>; search: URLSearchParams },
): Promise<void> {
  const read =
    <T>(path: string) =>
    async () => {
      const { status, payload } = await readApi(path);
      return readApiAnswer<T>(status, payload);
    };
  await queryClient.prefetchQuery({
    queryKey: opsQueryKeys.session,
    queryFn: () => readConsoleSession(read<OperatorSession>(OPS_ROUTES.session)),
  });
  const session = queryClient.getQueryData<ConsoleSession>(opsQueryKeys.session);
  if (!session) return;
  if (!session.signedIn) {
    const refusal = page.search.get(OPS_SIGN_IN_REFUSAL_PARAM);
    const code = session.code === 'Ops_Session_Expired' ? session.code : refusal;
    if (code) await queryClient.prefetchQuery(getErrorMessageQueryOptions(code));
    return;
  }
  const { userId, locationId } = page.params;
  const q = (page.search.get('q') ?? '').trim();
  const record = userId
    ? { queryKey: opsQueryKeys.person(userId), path: opsPath(OPS_ROUTES.person, { userId }) }
    : locationId
      ? { queryKey: opsQueryKeys.location(locationId), path: opsPath(OPS_ROUTES.location, { locationId }) }
      : page.pathname === OPS_PAGE_PATHS.console && q.length >= OPS_QUERY_MIN && q.length <= OPS_QUERY_MAX
        ? { queryKey: opsQueryKeys.search(q), path: `${OPS_ROUTES.search}?q=${encodeURIComponent(q)}` }
        : undefined;
  if (record) await queryClient.prefetchQuery({ queryKey: record.queryKey, queryFn: read(record.path) });
}
