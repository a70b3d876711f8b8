import type { OperatorSession } from '@portal/contracts/ops';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError } from '../../lib/api-error';
import { operatorSessionQueryOptions, opsQueryKeys, signOut } from './api/ops-api';

/** How long before the session's end the console warns (docs/requirements/help-desk.md#sign-in: 15 minutes idle). */
export const IDLE_WARNING_MS = 2 * 60_000;

export type OpsSessionState =
  | { kind: 'checking' }
  /** `directorySignOut`: after a chosen sign-out, where the directory's own session can be ended too (if it offers it). */
  | { kind: 'signed-out'; chosen?: boolean; directorySignOut?: string | null }
  /** The session the console had is gone (idle, time limit, the directory): `code` says why. */
  | { kind: 'ended'; code: string }
  | { kind: 'signed-in'; operator: OperatorSession; supervisor: boolean };

interface OpsSessionValue {
  state: OpsSessionState;
  /** Ends the console session; the directory's own session stays (the signed-out page offers its sign-out). */
  signOut: () => Promise<void>;
}

const OpsSessionContext = createContext<OpsSessionValue | null>(null);

export function useOpsSession(): OpsSessionValue {
  const value = useContext(OpsSessionContext);
  if (!value) throw new Error('useOpsSession outside OpsSessionProvider');
  return value;
}

/** The signed-in operator; only inside the console's signed-in pages. */
export function useOperator(): { operator: OperatorSession; supervisor: boolean } {
  const { state } = useOpsSession();
  if (state.kind !== 'signed-in') throw new Error('useOperator without a signed-in operator');
  return state;
}

/**
 * The console's session (docs/requirements/help-desk.md#sign-in): read from `GET /api/ops/session`, which states when
 * the session ends if no console request comes first (`idleExpiresAt`) and whatever happens (`absoluteExpiresAt`).
 * Every other console request moves the idle end, so after each one the session is read again; a 401 from any console
 * request means the session is gone.
 */
export function OpsSessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useQuery(operatorSessionQueryOptions());
  const [signedOut, setSignedOut] = useState<{ directorySignOut: string | null }>();

  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated') return;
        const key = event.query.queryKey;
        if (key[0] !== 'ops' || key[1] === 'session') return;
        const { type } = event.action;
        if (type === 'success') void queryClient.invalidateQueries({ queryKey: opsQueryKeys.session });
        if (type === 'error' && event.action.error instanceof ApiError && event.action.error.status === 401)
          void queryClient.invalidateQueries({ queryKey: opsQueryKeys.session });
      }),
    [queryClient],
  );

  const { data, error, isError } = session;
  // Whether this page has had an operator: a refusal after that means the session ended, whatever its code (an earlier
  // console answer may have cleared the cookie already).
  const [hadOperator, setHadOperator] = useState(false);
  if (data?.signedIn && !hadOperator) setHadOperator(true);
  const state: OpsSessionState = useMemo(() => {
    if (signedOut) return { kind: 'signed-out', chosen: true, directorySignOut: signedOut.directorySignOut };
    // A failed refetch keeps the last answer: still signed in.
    if (data?.signedIn)
      return { kind: 'signed-in', operator: data.operator, supervisor: data.operator.roles.includes('supervisor') };
    // The session it had is gone (idle, time limit, the directory), or the server says it ended: ended; never had one:
    // signed out.
    if (data)
      return hadOperator || data.code === 'Ops_Session_Expired'
        ? { kind: 'ended', code: 'Ops_Session_Expired' }
        : { kind: 'signed-out' };
    if (isError) return { kind: 'ended', code: error instanceof ApiError ? error.code : 'Ops_Session_Expired' };
    return { kind: 'checking' };
  }, [data, error, isError, signedOut, hadOperator]);

  const value = useMemo<OpsSessionValue>(
    () => ({
      state,
      signOut: async () => {
        const { endSessionUrl } = await signOut().catch(() => ({ endSessionUrl: null }));
        setSignedOut({ directorySignOut: endSessionUrl });
        queryClient.removeQueries({ queryKey: opsQueryKeys.all });
      },
    }),
    [state, queryClient],
  );

  // Once the session's end has passed, ask the server, which answers 401 if it is over.
  const operator = data?.signedIn ? data.operator : undefined;
  const endsAt = operator
    ? Math.min(Date.parse(operator.idleExpiresAt), Date.parse(operator.absoluteExpiresAt))
    : undefined;
  useEffect(() => {
    if (endsAt === undefined) return;
    const timer = setTimeout(
      () => void queryClient.refetchQueries({ queryKey: opsQueryKeys.session }),
      Math.max(0, endsAt - Date.now()) + 1000,
    );
    return () => clearTimeout(timer);
  }, [endsAt, queryClient]);

  return <OpsSessionContext.Provider value={value}>{children}</OpsSessionContext.Provider>;
}
