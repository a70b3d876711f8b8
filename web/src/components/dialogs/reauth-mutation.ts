import { useMutation, useQueryClient, type QueryKey, type UseMutationResult } from '@tanstack/react-query';
import { useContext } from 'react';
import { useApiErrorText } from '../../lib/use-api-error-text';
import { ReauthContext } from '../reauth/reauth-context';

// Apart from the dialog (confirm-action.tsx): a page that runs an action without a confirmation, or shows its dialog
// only when asked, does not carry MUI's Dialog, Modal, FocusTrap and Portal in its first download (issue 39).

export interface ReauthMutationOptions<R, V> {
  /** The call to the API. Under a `ReauthProvider`, a `Reauthentication_Required` refusal asks for the password and
   * calls again (docs/requirements/session.md#re-authentication); elsewhere it is called as it is. */
  call: (variables: V) => Promise<R>;
  /** The queries to fetch again once the call succeeded (the action stays busy until they are here). */
  refresh?: QueryKey;
  /** Fetch `refresh` after a refusal too: it may mean the list is stale (someone else acted meanwhile). */
  refreshAfterFailure?: boolean;
  /** After the call succeeded, before the refresh: close the dialog, set the status, move the focus. */
  onSuccess?: (result: R, variables: V) => void;
  onError?: (error: unknown, variables: V) => void;
  /** After either: what a confirmation closes whatever the outcome. */
  onSettled?: (variables: V) => void;
}

/**
 * A confirmed action of the console or My account (docs/decisions/0073-form-and-action-primitives.md): confirm →
 * re-authenticate when the login is old → call → refresh → status, as one TanStack Query mutation. `isPending` is the
 * busy state, `error` the last refusal (cleared by the next try).
 */
export function useReauthMutation<R, V = void>({
  call,
  refresh,
  refreshAfterFailure,
  onSuccess,
  onError,
  onSettled,
}: ReauthMutationOptions<R, V>): UseMutationResult<R, unknown, V> {
  const reauth = useContext(ReauthContext);
  const queryClient = useQueryClient();
  const refetch = () => (refresh ? queryClient.invalidateQueries({ queryKey: refresh }) : undefined);
  return useMutation<R, unknown, V>({
    mutationFn: (variables) => (reauth ? reauth.withReauth(() => call(variables)) : call(variables)),
    onSuccess: async (result, variables) => {
      onSuccess?.(result, variables);
      await refetch();
    },
    onError: (error, variables) => {
      onError?.(error, variables);
      if (refreshAfterFailure) void refetch();
    },
    onSettled: (_result, _error, variables) => onSettled?.(variables),
  });
}

/** The text of an action's last refusal (its error code's CMS text), or undefined. */
export function useActionErrorText(action: Pick<UseMutationResult<unknown, unknown, never>, 'error'>) {
  return useApiErrorText(action.error ?? undefined);
}
