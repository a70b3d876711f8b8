import { act, fireEvent, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMocks } from 'react-idle-timer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from '../../api-client';
import { recordRequests, server } from '../../../testing/msw-server';
import { SessionProvider, useSession } from '../session-context';
import { readSessionTimerConfig } from '../session-timer-config';
import { WithQueryClient } from '../../../testing/render-app';

// Short settings in the same shape as the site config: prompt after 6 s without activity, idle after 10 s.
const timerConfig = { timeoutMs: 10_000, promptBeforeIdleMs: 4_000, throttleMs: 1_000, eventsThrottleMs: 200 };
const PROMPT_AT = timerConfig.timeoutMs - timerConfig.promptBeforeIdleMs;

function Probe() {
  const session = useSession();
  return (
    <div>
      <output data-testid="status">{session.activityStatus}</output>
      <output data-testid="logged-in">{String(session.loggedIn)}</output>
      <button onClick={session.loggedInNow}>login</button>
      <button onClick={() => void session.logout()}>logout</button>
      <button onClick={() => void session.logoutNow()}>logout now</button>
      <button onClick={() => void session.stayLoggedIn()}>still here</button>
      <button onClick={session.dismissEnded}>dismiss</button>
    </div>
  );
}

const status = () => screen.getByTestId('status').textContent;
const loggedIn = () => screen.getByTestId('logged-in').textContent;
const posts = (requests: URL[], path: string) => requests.filter((url) => url.pathname === path).length;

/** Moves the fake clock and lets the promises it settles (fetch answers) run. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** The timer's module loads at the login (a lazy import): wait for it, then let React mount it. */
async function timerLoaded() {
  await act(async () => {
    await vi.dynamicImportSettled();
  });
  await advance(0);
}

async function renderLoggedIn() {
  render(
    <SessionProvider timerConfig={timerConfig}>
      <Probe />
    </SessionProvider>,
    { wrapper: WithQueryClient },
  );
  await advance(0);
  fireEvent.click(screen.getByText('login'));
  await timerLoaded();
}

describe('activity status (docs/requirements/session.md#activity-status)', () => {
  let requests: URL[];
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    // react-idle-timer keeps the timer functions it found at import; this hands it the fake ones.
    createMocks();
    requests = recordRequests();
    server.use(
      http.post('/api/session/extend', () => HttpResponse.json({ data: { loggedIn: true, idleSecondsLeft: 10 } })),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    createMocks();
  });

  it('never starts the timer before the login: a logged-out page stays active past the timeout', async () => {
    render(
      <SessionProvider timerConfig={timerConfig}>
        <Probe />
      </SessionProvider>,
      { wrapper: WithQueryClient },
    );
    await advance(timerConfig.timeoutMs * 2);
    expect(status()).toBe('active');
    expect(posts(requests, '/api/auth/logout')).toBe(0);
  });

  it('active → prompted at the prompt point, not before', async () => {
    await renderLoggedIn();
    await advance(PROMPT_AT - 500);
    expect(status()).toBe('active');
    await advance(1_000);
    expect(status()).toBe('prompted');
  });

  it('activity before the prompt point restarts the wait', async () => {
    await renderLoggedIn();
    await advance(PROMPT_AT - 1_000);
    fireEvent.keyDown(document);
    await advance(PROMPT_AT - 1_000);
    expect(status()).toBe('active');
    await advance(2_000);
    expect(status()).toBe('prompted');
  });

  it("prompted → active through I'm still here, which also extends the server session", async () => {
    await renderLoggedIn();
    await advance(PROMPT_AT + 500);
    expect(status()).toBe('prompted');
    fireEvent.click(screen.getByText('still here'));
    await advance(0);
    expect(status()).toBe('active');
    expect(posts(requests, '/api/session/extend')).toBe(1);
    // The wait starts over: no prompt until a whole prompt interval has passed again.
    await advance(PROMPT_AT - 500);
    expect(status()).toBe('active');
  });

  it('→ idle at the timeout: server logout, logged out, and the timer stays stopped', async () => {
    await renderLoggedIn();
    await advance(timerConfig.timeoutMs + 500);
    expect(status()).toBe('idle');
    expect(loggedIn()).toBe('false');
    expect(posts(requests, '/api/auth/logout')).toBe(1);
    // Stopped: activity and time change nothing until the user leaves the ended dialog.
    fireEvent.keyDown(document);
    fireEvent.mouseDown(document);
    await advance(timerConfig.timeoutMs * 2);
    expect(status()).toBe('idle');
    expect(posts(requests, '/api/auth/logout')).toBe(1);
  });

  it('idle → active when the user leaves the session-ended dialog', async () => {
    await renderLoggedIn();
    await advance(timerConfig.timeoutMs + 500);
    fireEvent.click(screen.getByText('dismiss'));
    expect(status()).toBe('active');
    expect(loggedIn()).toBe('false');
  });

  it('Log out (chosen): server logout, logged out without the session-ended state, and no prompt afterwards', async () => {
    await renderLoggedIn();
    fireEvent.click(screen.getByText('logout'));
    await advance(0);
    expect(posts(requests, '/api/auth/logout')).toBe(1);
    expect(loggedIn()).toBe('false');
    expect(status()).toBe('active');
    await advance(timerConfig.timeoutMs * 2);
    expect(status()).toBe('active');
    expect(posts(requests, '/api/auth/logout')).toBe(1);
  });

  it('Logout now (the prompt): server logout, then the session-ended state, and no prompt afterwards', async () => {
    await renderLoggedIn();
    fireEvent.click(screen.getByText('logout now'));
    await advance(0);
    expect(posts(requests, '/api/auth/logout')).toBe(1);
    expect(status()).toBe('idle');
    fireEvent.click(screen.getByText('dismiss'));
    await advance(timerConfig.timeoutMs * 2);
    expect(status()).toBe('active');
  });

  it('a 401 Session_Expired on any call while logged in leads to the session-ended state', async () => {
    server.use(
      http.get('/api/protected', () => HttpResponse.json({ errorMessage: 'Session_Expired' }, { status: 401 })),
    );
    await renderLoggedIn();
    await act(async () => {
      await expect(apiRequest('/api/protected')).rejects.toBeInstanceOf(ApiError);
    });
    expect(status()).toBe('idle');
    expect(loggedIn()).toBe('false');
  });

  it('picks up a session that survives a reload and runs the timer for it', async () => {
    server.use(http.get('/api/session', () => HttpResponse.json({ data: { loggedIn: true, idleSecondsLeft: 10 } })));
    render(
      <SessionProvider timerConfig={timerConfig}>
        <Probe />
      </SessionProvider>,
      { wrapper: WithQueryClient },
    );
    await advance(0);
    expect(loggedIn()).toBe('true');
    await timerLoaded();
    await advance(PROMPT_AT + 500);
    expect(status()).toBe('prompted');
  });
});

describe('session timer settings', () => {
  it('the prompt point must come before the timeout', () => {
    expect(() => readSessionTimerConfig({ ...timerConfig, promptBeforeIdleMs: timerConfig.timeoutMs })).toThrow(
      /must be below timeoutMs/,
    );
    expect(() => readSessionTimerConfig({ ...timerConfig, promptBeforeIdleMs: timerConfig.timeoutMs + 1 })).toThrow(
      /must be below timeoutMs/,
    );
    expect(readSessionTimerConfig(timerConfig)).toEqual(timerConfig);
  });

  it('defaults to 30 minutes with the prompt 15 minutes before', () => {
    expect(readSessionTimerConfig()).toMatchObject({
      timeoutMs: 1_800_000,
      promptBeforeIdleMs: 900_000,
      throttleMs: 1_000,
      eventsThrottleMs: 200,
    });
  });
});
