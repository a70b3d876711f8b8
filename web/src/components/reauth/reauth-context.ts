import { createContext, useContext } from 'react';

export interface ReauthContextValue {
  /**
   * Runs an account change; when the server answers that the login is too old for it, asks for the password
   * (the re-authentication dialog), then runs the change once more. Cancelling the dialog rejects with the
   * server's original error, so the form shows why nothing changed.
   */
  withReauth: <T>(change: () => Promise<T>) => Promise<T>;
}

/**
 * The re-authentication of `ReauthProvider` (reauth-provider.tsx), on its own so that code that only may run under
 * one (useReauthMutation) does not bring the provider into pages without it.
 */
export const ReauthContext = createContext<ReauthContextValue | null>(null);

export function useReauth(): ReauthContextValue {
  const value = useContext(ReauthContext);
  if (!value) throw new Error('useReauth must be used inside <ReauthProvider>');
  return value;
}
