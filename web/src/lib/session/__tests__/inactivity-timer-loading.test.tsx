import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SessionProvider, useSession } from '../session-context';

// The inactivity timer (react-idle-timer) is left out of a visitor's first download
// (docs/requirements/platform.md#web-budget): its module is imported only once the session says logged in.
const timerModule = vi.hoisted(() => ({ imported: vi.fn() }));
vi.mock('../inactivity-timer', async (importOriginal) => {
  timerModule.imported();
  return importOriginal();
});

function LoginButton() {
  const { loggedInNow } = useSession();
  return <button onClick={loggedInNow}>login</button>;
}

async function settle() {
  await act(async () => {
    await vi.dynamicImportSettled();
  });
}

describe('loading the inactivity timer', () => {
  it('is not imported for a visitor who is not logged in, and is imported at the login', async () => {
    render(
      <SessionProvider>
        <LoginButton />
      </SessionProvider>,
    );
    await settle();
    expect(timerModule.imported).not.toHaveBeenCalled();
    fireEvent.click(screen.getByText('login'));
    await settle();
    expect(timerModule.imported).toHaveBeenCalledOnce();
  });
});
