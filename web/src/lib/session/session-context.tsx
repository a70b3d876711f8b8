import {
  createContext,
  lazy,
  startTransition,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import type { IIdleTimer } from 'react-idle-timer';
import { focusManager, useQueryClient } from '@tanstack/react-query';
import type { SessionTimerConfig } from '@portal/contracts';
import { onSessionLost } from '../api-error';
import { rememberEndedReason } from './ended-reason';
import { useHydrated } from '../use-hydrated';
import type { InactivityTimerEvents } from './inactivity-timer';

// The session calls bring the HTTP client and its answers' schemas (zod): they load with the first call, after the
// page is interactive, not with the first download (docs/requirements/platform.md#web-budget).
const sessionApi = () => import('./session-api');
const fetchSessionState = (signal?: AbortSignal) => sessionApi().then((api) => api.fetchSessionState(signal));
const extendServerSession = () => sessionApi().then((api) => api.extendServerSession());
const logoutServerSession = () => sessionApi().then((api) => api.logoutServerSession());
import { readSessionTimerConfig } from './session-timer-config';

// react-idle-timer and its handlers load once the session says logged in (docs/requirements/platform.md#web-budget).
const InactivityTimer = lazy(() => import('./inactivity-timer'));

/** Client session context (docs/requirements/session.md#client-session-context) and its activity status. */
export type ActivityStatus = 'active' | 'prompted' | 'idle';

/** What one tab tells the others beyond the timer's own events. */
type TabMessage = { type: 'logged-in' } | { type: 'session-ended' };

export interface SessionContextValue {
  loggedIn: boolean;
  /**
   * Logged in and an administrator of at least one location (the session answer's `administersLocation`): the header
   * and the portal home link to the console. Undefined while not known (logged out, or the server has not said).
   */
  administersLocation: boolean | undefined;
  /** The server's answer about an existing session has arrived (protected pages wait for it). */
  sessionChecked: boolean;
  /**
   * Not known yet whether this browser is logged in: it may have a session (a server-rendered page says whether the
   * request carried a session cookie) and the server has not answered. The header's account control waits.
   */
  sessionPending: boolean;
  setLoggedIn: (value: boolean) => void;
  activityStatus: ActivityStatus;
  setActivityStatus: (value: ActivityStatus) => void;
  /** Controls the CMS notices banner (docs/requirements/session.md#client-session-context: dismissed → false). */
  showAlerts: boolean;
  setShowAlerts: (value: boolean) => void;
  loginRef: RefObject<HTMLElement | null>;
  /** The login completed (after the second factor): starts the inactivity timer in every tab. */
  loggedInNow: () => void;
  /**
   * A chosen Log out (the header's): server logout, logged out here without the session-ended dialog (the caller
   * shows "You have logged out"); the other tabs end their session with the dialog.
   */
  logout: () => Promise<void>;
  /** The inactivity prompt's Logout now: server logout, then the session-ended state in every tab. */
  logoutNow: () => Promise<void>;
  /** I'm still here: back to active in every tab and the server's idle limit restarts. */
  stayLoggedIn: () => Promise<void>;
  /** Leave the session-ended state (its Login and Stay logged out buttons). */
  dismissEnded: () => void;
  /** Milliseconds until the inactivity timeout (for the prompt's countdown). */
  getRemainingTime: () => number;
  timerConfig: SessionTimerConfig;
}

const SessionContext = createContext<SessionContextValue | null>(null);

/** The query of `GET /api/session` (the session provider's). */
const SESSION_QUERY_KEY = ['session'] as const;

export interface SessionProviderProps {
  children: ReactNode;
  /** Tests pass short values; the app reads the site config. */
  timerConfig?: SessionTimerConfig;
  /** False when the page was rendered for a request without a session cookie: surely logged out at first. */
  mayHaveSession?: boolean;
  /**
   * The session the server checked before rendering a page for logged-in users (and the same page while it
   * hydrates): logged in from the first render, no waiting for `GET /api/session`.
   */
  session?: KnownSession;
}

/** A session the server has checked: what a page rendered for logged-in users starts from. */
export interface KnownSession {
  loggedIn: true;
  /** Whether the user administers a location (the header's console link is in the page's first HTML). */
  administersLocation?: boolean;
}

/**
 * Session state and the inactivity handler (docs/requirements/session.md#activity-status): react-idle-timer (in
 * inactivity-timer.tsx, loaded at the first login),
 * started when the user logs in and stopped at logout, shared by all tabs. active → prompted at the prompt point,
 * → idle at the timeout (server logout, timer stopped, session-ended dialog); activity or I'm still here → active.
 */
export function SessionProvider({
  children,
  timerConfig: givenConfig,
  mayHaveSession = true,
  session,
}: SessionProviderProps) {
  const [timerConfig] = useState(() => readSessionTimerConfig(givenConfig));
  const [loggedIn, setLoggedIn] = useState(session?.loggedIn ?? false);
  const [administersLocation, setAdministersLocation] = useState(session?.administersLocation);
  const [sessionChecked, setSessionChecked] = useState(session !== undefined);
  const [activityStatus, setActivityStatus] = useState<ActivityStatus>('active');
  const [showAlerts, setShowAlerts] = useState(true);
  const loginRef = useRef<HTMLElement | null>(null);
  // The timer's callbacks read the latest login state without being re-created.
  const loggedInRef = useRef(session?.loggedIn ?? false);
  useEffect(() => {
    loggedInRef.current = loggedIn;
  }, [loggedIn]);

  /** This tab's part of ending a session: logged out, timer stopped, the session-ended dialog. */
  const endLocally = useCallback(() => {
    loggedInRef.current = false;
    setLoggedIn(false);
    setActivityStatus('idle');
  }, []);

  // The timer's controls once it is loaded; messages for the other tabs wait for it (the login that loads it says
  // so to the other tabs).
  const timerRef = useRef<IIdleTimer | null>(null);
  const pendingMessages = useRef<TabMessage[]>([]);
  const messageOtherTabs = useCallback((message: TabMessage) => {
    if (timerRef.current) timerRef.current.message(message);
    else pendingMessages.current.push(message);
  }, []);
  const timerEvents = useRef<InactivityTimerEvents>({
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
    onMessage: (data) => {
      const message = data as TabMessage;
      if (message.type === 'logged-in') {
        loggedInRef.current = true;
        setLoggedIn(true);
        setActivityStatus('active');
      } else if (message.type === 'session-ended' && loggedInRef.current) endLocally();
    },
    onReady: () => {
      for (const message of pendingMessages.current.splice(0)) timerRef.current?.message(message);
    },
  });
  // Mounted at the first login and kept: it then runs exactly while logged in. A tab that never logged in does not
  // load it, so it does not hear another tab's login until it checks its session again.
  // Not on the server nor while hydrating: a page rendered logged in (docs/decisions/0060) has no timer in its markup.
  const hydrated = useHydrated();
  const [timerMounted, setTimerMounted] = useState(false);
  if (hydrated && loggedIn && !timerMounted) setTimerMounted(true);

  // What the server says about this browser's session: one query (docs/decisions/0073-form-and-action-primitives.md),
  // asked at start (a session that survives a reload, or was started in another tab), whenever the tab is shown
  // again while logged out without the timer (which would have heard another tab's login), and after a login here
  // or in another tab (whether the user administers a location). Reading it never extends the session. It is asked
  // through the query client (in every page's first download) rather than `useQuery`, whose observer would add
  // ~2.4 KB to the pages that have no other query (bench/web-size).
  const queryClient = useQueryClient();
  const askSession = useCallback(
    () =>
      queryClient
        .fetchQuery({
          queryKey: SESSION_QUERY_KEY,
          queryFn: ({ signal }) => fetchSessionState(signal),
          retry: false,
          staleTime: 0,
        })
        .then((answer) => {
          // Someone else ended this browser's session since its last visit: the login page says why.
          if (answer.endedBecause) rememberEndedReason(answer.endedBecause);
          if (!answer.loggedIn) return;
          const wasLoggedIn = loggedInRef.current;
          loggedInRef.current = true;
          // As a transition: a context change outside one makes React hydrate at once, in one task, every part of
          // the page that is still server markup (a part that hydrates on its own, lib/lazy-part.tsx), and
          // re-render everything that reads the session; as a transition it yields to the browser every few
          // milliseconds (docs/decisions/0060).
          startTransition(() => {
            if (!wasLoggedIn) setLoggedIn(true);
            setAdministersLocation(answer.administersLocation ?? false);
          });
        }),
    [queryClient],
  );
  useEffect(() => {
    let active = true;
    void askSession()
      .catch(() => undefined)
      .finally(() => {
        if (active) startTransition(() => setSessionChecked(true));
      });
    // Shown again (TanStack's focus manager: `visibilitychange`) while logged out and without the timer: ask again.
    const unsubscribe = focusManager.subscribe((focused) => {
      if (focused && !loggedInRef.current && !timerRef.current) void askSession().catch(() => undefined);
    });
    return () => {
      active = false;
      unsubscribe();
      void queryClient.cancelQueries({ queryKey: SESSION_QUERY_KEY });
    };
  }, [askSession, queryClient]);

  // Logged out, whether the user administers a location is forgotten, so the next login (maybe another user's) asks.
  if (!loggedIn && administersLocation !== undefined) setAdministersLocation(undefined);
  // Logged in without knowing it (a login in this tab or another one): ask.
  useEffect(() => {
    if (loggedIn && administersLocation === undefined) void askSession().catch(() => undefined);
  }, [loggedIn, administersLocation, askSession]);

  // The server ended the session first (laptop slept, absolute limit): the same session-ended dialog.
  useEffect(
    () =>
      onSessionLost(() => {
        if (!loggedInRef.current) return;
        endLocally();
        messageOtherTabs({ type: 'session-ended' });
      }),
    [endLocally, messageOtherTabs],
  );

  const loggedInNow = useCallback(() => {
    loggedInRef.current = true;
    setLoggedIn(true);
    setActivityStatus('active');
    messageOtherTabs({ type: 'logged-in' });
  }, [messageOtherTabs]);

  const logoutNow = useCallback(async () => {
    try {
      await logoutServerSession();
    } finally {
      endLocally();
      messageOtherTabs({ type: 'session-ended' });
    }
  }, [endLocally, messageOtherTabs]);

  const logout = useCallback(async () => {
    try {
      await logoutServerSession();
    } finally {
      loggedInRef.current = false;
      // A transition, like the router's own updates: it renders with the navigation to the logged-out page, so the
      // protected page being left never renders logged out (its RequireLogin would send the user to the login).
      startTransition(() => {
        setLoggedIn(false);
        setActivityStatus('active');
      });
      messageOtherTabs({ type: 'session-ended' });
    }
  }, [messageOtherTabs]);

  const stayLoggedIn = useCallback(async () => {
    timerRef.current?.activate();
    setActivityStatus('active');
    // A 401 here reaches onSessionLost, which shows the session-ended dialog.
    await extendServerSession().catch(() => undefined);
  }, []);

  const dismissEnded = useCallback(() => setActivityStatus('active'), []);
  const getRemainingTime = useCallback(
    () => timerRef.current?.getRemainingTime() ?? timerConfig.timeoutMs,
    [timerConfig],
  );

  const value = useMemo(
    () => ({
      loggedIn,
      administersLocation,
      sessionChecked,
      sessionPending: mayHaveSession && !loggedIn && !sessionChecked,
      setLoggedIn,
      activityStatus,
      setActivityStatus,
      showAlerts,
      setShowAlerts,
      loginRef,
      loggedInNow,
      logout,
      logoutNow,
      stayLoggedIn,
      dismissEnded,
      getRemainingTime,
      timerConfig,
    }),
    [
      loggedIn,
      administersLocation,
      sessionChecked,
      mayHaveSession,
      activityStatus,
      showAlerts,
      loggedInNow,
      logout,
      logoutNow,
      stayLoggedIn,
      dismissEnded,
      getRemainingTime,
      timerConfig,
    ],
  );
  return (
    <SessionContext.Provider value={value}>
      {children}
      {timerMounted && (
        <Suspense fallback={null}>
          <InactivityTimer config={timerConfig} loggedIn={loggedIn} eventsRef={timerEvents} controlsRef={timerRef} />
        </Suspense>
      )}
    </SessionContext.Provider>
  );
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
