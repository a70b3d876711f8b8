import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { useIdleTimer } from 'react-idle-timer';
import type { SessionTimerConfig } from '@portal/contracts';
import { onSessionLost } from '../api-client';
import { extendServerSession, fetchSessionState, logoutServerSession } from './session-api';
import { readSessionTimerConfig } from './session-timer-config';

/** Client session context (docs/requirements/session.md#client-session-context) and its activity status. */
export type ActivityStatus = 'active' | 'prompted' | 'idle';

/** The cross-tab timer's name (docs/requirements/session.md#inactivity-timer-constants). */
export const SESSION_TIMER_NAME = 'session-timer';
/** Activity that counts (docs/requirements/session.md#activity-status). */
export const SESSION_TIMER_EVENTS = ['keydown', 'mousedown', 'scroll', 'click'] as const;

/** What one tab tells the others beyond the timer's own events. */
type TabMessage = { type: 'logged-in' } | { type: 'session-ended' };

export interface SessionContextValue {
  loggedIn: boolean;
  /** The server's answer about an existing session has arrived (protected pages wait for it). */
  sessionChecked: boolean;
  setLoggedIn: (value: boolean) => void;
  activityStatus: ActivityStatus;
  setActivityStatus: (value: ActivityStatus) => void;
  /** Controls the CMS notices banner (docs/requirements/session.md#client-session-context: dismissed → false). */
  showAlerts: boolean;
  setShowAlerts: (value: boolean) => void;
  loginRef: RefObject<HTMLElement | null>;
  /** The login completed (after the second factor): starts the inactivity timer in every tab. */
  loggedInNow: () => void;
  /** Log out on the server, then the session-ended state in every tab (Log out, Logout now). */
  logout: () => Promise<void>;
  /** I'm still here: back to active in every tab and the server's idle limit restarts. */
  stayLoggedIn: () => Promise<void>;
  /** Leave the session-ended state (its Login and Stay logged out buttons). */
  dismissEnded: () => void;
  /** Milliseconds until the inactivity timeout (for the prompt's countdown). */
  getRemainingTime: () => number;
  timerConfig: SessionTimerConfig;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export interface SessionProviderProps {
  children: ReactNode;
  /** Tests pass short values; the app reads the site config. */
  timerConfig?: SessionTimerConfig;
}

/**
 * Session state and the inactivity handler (docs/requirements/session.md#activity-status): react-idle-timer,
 * started when the user logs in and stopped at logout, shared by all tabs. active → prompted at the prompt point,
 * → idle at the timeout (server logout, timer stopped, session-ended dialog); activity or I'm still here → active.
 */
export function SessionProvider({ children, timerConfig: givenConfig }: SessionProviderProps) {
  const [timerConfig] = useState(() => readSessionTimerConfig(givenConfig));
  const [loggedIn, setLoggedIn] = useState(false);
  const [sessionChecked, setSessionChecked] = useState(false);
  const [activityStatus, setActivityStatus] = useState<ActivityStatus>('active');
  const [showAlerts, setShowAlerts] = useState(true);
  const loginRef = useRef<HTMLElement | null>(null);
  // The timer's callbacks read the latest login state without being re-created.
  const loggedInRef = useRef(false);
  useEffect(() => {
    loggedInRef.current = loggedIn;
  }, [loggedIn]);

  /** This tab's part of ending a session: logged out, timer stopped, the session-ended dialog. */
  const endLocally = useCallback(() => {
    loggedInRef.current = false;
    setLoggedIn(false);
    setActivityStatus('idle');
  }, []);

  const timer = useIdleTimer({
    timeout: timerConfig.timeoutMs,
    promptBeforeIdle: timerConfig.promptBeforeIdleMs,
    throttle: timerConfig.throttleMs,
    eventsThrottle: timerConfig.eventsThrottleMs,
    events: [...SESSION_TIMER_EVENTS],
    crossTab: true,
    name: SESSION_TIMER_NAME,
    leaderElection: true,
    startManually: true,
    stopOnIdle: true,
    onPrompt: () => {
      if (loggedInRef.current) setActivityStatus('prompted');
    },
    onActive: () => {
      if (loggedInRef.current) setActivityStatus('active');
    },
    onIdle: () => {
      if (!loggedInRef.current) return;
      endLocally();
      // Every tab goes idle together; logging out twice is not an error on the server.
      void logoutServerSession().catch(() => undefined);
    },
    onMessage: (message: TabMessage) => {
      if (message.type === 'logged-in') {
        loggedInRef.current = true;
        setLoggedIn(true);
        setActivityStatus('active');
      } else if (message.type === 'session-ended' && loggedInRef.current) endLocally();
    },
  });
  const timerRef = useRef(timer);
  useEffect(() => {
    timerRef.current = timer;
  });

  // The timer runs exactly while logged in. Only a logout pauses it: the timer's controls reach every tab, and a
  // tab that opens logged out must not stop the others' timers.
  const wasLoggedIn = useRef(false);
  useEffect(() => {
    if (loggedIn) timerRef.current.start();
    else if (wasLoggedIn.current) timerRef.current.pause();
    wasLoggedIn.current = loggedIn;
  }, [loggedIn]);

  // A session that survives a reload (or was started in another tab) is picked up once at start.
  useEffect(() => {
    const controller = new AbortController();
    fetchSessionState(controller.signal)
      .then((state) => {
        if (state.loggedIn) setLoggedIn(true);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!controller.signal.aborted) setSessionChecked(true);
      });
    return () => controller.abort();
  }, []);

  // The server ended the session first (laptop slept, absolute limit): the same session-ended dialog.
  useEffect(
    () =>
      onSessionLost(() => {
        if (!loggedInRef.current) return;
        endLocally();
        timerRef.current.message({ type: 'session-ended' } satisfies TabMessage);
      }),
    [endLocally],
  );

  const loggedInNow = useCallback(() => {
    loggedInRef.current = true;
    setLoggedIn(true);
    setActivityStatus('active');
    timerRef.current.message({ type: 'logged-in' } satisfies TabMessage);
  }, []);

  const logout = useCallback(async () => {
    try {
      await logoutServerSession();
    } finally {
      endLocally();
      timerRef.current.message({ type: 'session-ended' } satisfies TabMessage);
    }
  }, [endLocally]);

  const stayLoggedIn = useCallback(async () => {
    timerRef.current.activate();
    setActivityStatus('active');
    // A 401 here reaches onSessionLost, which shows the session-ended dialog.
    await extendServerSession().catch(() => undefined);
  }, []);

  const dismissEnded = useCallback(() => setActivityStatus('active'), []);
  const getRemainingTime = useCallback(() => timerRef.current.getRemainingTime(), []);

  const value = useMemo(
    () => ({
      loggedIn,
      sessionChecked,
      setLoggedIn,
      activityStatus,
      setActivityStatus,
      showAlerts,
      setShowAlerts,
      loginRef,
      loggedInNow,
      logout,
      stayLoggedIn,
      dismissEnded,
      getRemainingTime,
      timerConfig,
    }),
    [
      loggedIn,
      sessionChecked,
      activityStatus,
      showAlerts,
      loggedInNow,
      logout,
      stayLoggedIn,
      dismissEnded,
      getRemainingTime,
      timerConfig,
    ],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
