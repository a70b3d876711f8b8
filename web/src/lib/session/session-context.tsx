import { createContext, useContext, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';

/** Client session context (docs/requirements/session.md#client-session-context). The inactivity timer that moves activityStatus arrives with login. */
export type ActivityStatus = 'active' | 'prompted' | 'idle';

export interface SessionContextValue {
  loggedIn: boolean;
  setLoggedIn: (value: boolean) => void;
  activityStatus: ActivityStatus;
  setActivityStatus: (value: ActivityStatus) => void;
  /** Controls the CMS notices banner (docs/requirements/session.md#client-session-context: dismissed → false). */
  showAlerts: boolean;
  setShowAlerts: (value: boolean) => void;
  loginRef: RefObject<HTMLElement | null>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [loggedIn, setLoggedIn] = useState(false);
  const [activityStatus, setActivityStatus] = useState<ActivityStatus>('active');
  const [showAlerts, setShowAlerts] = useState(true);
  const loginRef = useRef<HTMLElement | null>(null);
  const value = useMemo(
    () => ({ loggedIn, setLoggedIn, activityStatus, setActivityStatus, showAlerts, setShowAlerts, loginRef }),
    [loggedIn, activityStatus, showAlerts],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
