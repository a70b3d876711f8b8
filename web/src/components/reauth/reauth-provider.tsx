import { lazy, Suspense, useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../../lib/api-error';
import { REAUTHENTICATION_REQUIRED_CODE } from './reauth-api';
import { ReauthContext, useReauth } from './reauth-context';

export { useReauth };

// The dialog (its password form, MUI's Dialog) loads when first asked for: the pages that offer changes hydrate
// without its code (docs/decisions/0060).
const ReauthDialog = lazy(() => import('./reauth-dialog').then((m) => ({ default: m.ReauthDialog })));

export const isReauthRequired = (err: unknown) =>
  err instanceof ApiError && err.code === REAUTHENTICATION_REQUIRED_CODE;

/**
 * Re-authentication for account changes (docs/requirements/session.md#re-authentication): one dialog for every
 * form under it. A page whose forms change email, phone, password, MFA or security answers renders inside it.
 */
export function ReauthProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // The pending change waits on this: true once the password was accepted, false when the user cancels.
  const settle = useRef<((reauthenticated: boolean) => void) | null>(null);

  const askForPassword = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        settle.current?.(false);
        settle.current = resolve;
        setOpen(true);
      }),
    [],
  );

  const close = useCallback((reauthenticated: boolean) => {
    setOpen(false);
    settle.current?.(reauthenticated);
    settle.current = null;
  }, []);

  const withReauth = useCallback(
    async <T,>(change: () => Promise<T>): Promise<T> => {
      try {
        return await change();
      } catch (err) {
        if (!isReauthRequired(err)) throw err;
        if (!(await askForPassword())) throw err;
        return change();
      }
    },
    [askForPassword],
  );

  const value = useMemo(() => ({ withReauth }), [withReauth]);
  return (
    <ReauthContext.Provider value={value}>
      {children}
      {open && (
        <Suspense fallback={null}>
          <ReauthDialog onDone={() => close(true)} onCancel={() => close(false)} />
        </Suspense>
      )}
    </ReauthContext.Provider>
  );
}
