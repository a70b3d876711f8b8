import { useEffect, useRef, type RefObject } from 'react';
import { useIdleTimer, type IIdleTimer } from 'react-idle-timer';
import type { SessionTimerConfig } from '@portal/contracts';

/** The cross-tab timer's name (docs/requirements/session.md#inactivity-timer-constants). */
export const SESSION_TIMER_NAME = 'session-timer';
/** Activity that counts (docs/requirements/session.md#activity-status). */
export const SESSION_TIMER_EVENTS = ['keydown', 'mousedown', 'scroll', 'click'] as const;

/** What the session provider hears from the timer; read through a ref, so the timer is never re-created. */
export interface InactivityTimerEvents {
  onPrompt: () => void;
  onActive: () => void;
  onIdle: () => void;
  onMessage: (message: unknown) => void;
  /** The timer is mounted and its controls are in `controlsRef` (messages sent before can go out now). */
  onReady: () => void;
}

export interface InactivityTimerProps {
  config: SessionTimerConfig;
  loggedIn: boolean;
  eventsRef: RefObject<InactivityTimerEvents>;
  /** Where the session provider reaches the timer's controls (message, activate, remaining time). */
  controlsRef: RefObject<IIdleTimer | null>;
}

/**
 * react-idle-timer, shared by all tabs (docs/requirements/session.md#activity-status). Its own module, loaded once
 * the session says logged in: a visitor who never logs in does not download it (docs/requirements/platform.md#web-budget).
 * Once mounted it stays mounted; it runs exactly while logged in.
 */
export default function InactivityTimer({ config, loggedIn, eventsRef, controlsRef }: InactivityTimerProps) {
  const timer = useIdleTimer({
    timeout: config.timeoutMs,
    promptBeforeIdle: config.promptBeforeIdleMs,
    throttle: config.throttleMs,
    eventsThrottle: config.eventsThrottleMs,
    events: [...SESSION_TIMER_EVENTS],
    crossTab: true,
    name: SESSION_TIMER_NAME,
    leaderElection: true,
    startManually: true,
    stopOnIdle: true,
    onPrompt: () => eventsRef.current.onPrompt(),
    onActive: () => eventsRef.current.onActive(),
    onIdle: () => eventsRef.current.onIdle(),
    onMessage: (message: unknown) => eventsRef.current.onMessage(message),
  });
  useEffect(() => {
    controlsRef.current = timer;
  });
  useEffect(() => {
    eventsRef.current.onReady();
  }, [eventsRef]);

  // Only a logout pauses it: the timer's controls reach every tab, and a tab that opens logged out must not stop
  // the others' timers.
  const wasLoggedIn = useRef(false);
  useEffect(() => {
    if (loggedIn) timer.start();
    else if (wasLoggedIn.current) timer.pause();
    wasLoggedIn.current = loggedIn;
    // The timer object is stable for the component's life; only the login state starts or pauses it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loggedIn]);
  return null;
}
