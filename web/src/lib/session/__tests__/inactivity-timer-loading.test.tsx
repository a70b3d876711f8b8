import { act, fireEvent, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { server } from '../../../testing/msw-server';
import { describe, expect, it, vi } from 'vitest';
import { SessionProvider, useSession } from '../session-context';
import { WithQueryClient } from '../../../testing/render-app';

// The inactivity timer (react-idle-timer) is left out of a visitor's first download
// (docs/requirements/platform.md#web-budget): its module is imported only once the session says logged in.
const timerModule = vi.hoisted(() => ({ imported: vi.fn() }));
vi.mock('../inactivity-timer', async (importOriginal) => {
  timerModule.imported();
  return importOriginal();
});

function LoginButton() {
  const { loggedIn, loggedInNow } = useSession();
  return (
    <>
      <output data-testid="logged-in">{String(loggedIn)}</output>
      <button onClick={loggedInNow}>login</button>
    </>
  );
}

async function settle() {
  await act(async () => {
    await vi.dynamicImportSettled();
  });
}

/** The session of a visitor not logged in yet, with a login button; settled. */
async function renderLoggedOut() {
  render(
    <SessionProvider>
      <LoginButton />
    </SessionProvider>,
    { wrapper: WithQueryClient },
  );
  await settle();
}

describe('loading the inactivity timer', () => {
  it('is not imported for a visitor who is not logged in, and is imported at the login', async () => {
    await renderLoggedOut();
    expect(timerModule.imported).not.toHaveBeenCalled();
    fireEvent.click(screen.getByText('login'));
    await settle();
    expect(timerModule.imported).toHaveBeenCalledOnce();
  });

  it('a tab without the timer picks up a login made in another tab when it is shown again', async () => {
    await renderLoggedOut();
    expect(screen.getByTestId('logged-in').textContent).toBe('false');
    // Another tab logged in: the server now answers logged in.
    server.use(http.get('/api/session', () => HttpResponse.json({ data: { loggedIn: true, idleSecondsLeft: 1800 } })));
    // As a browser fires it: at the document, bubbling to the window.
    fireEvent(document, new Event('visibilitychange', { bubbles: true }));
    expect(await screen.findByText('true')).toBeInTheDocument();
  });
});
