import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Suspense, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { recordRequests, server } from '../../../testing/msw-server';
import { WithQueryClient } from '../../../testing/render-app';
import { sessionRoute } from '../../../testing/session-handlers';
import { lazyPart } from '../../lazy-part';
import { useHydrated } from '../../use-hydrated';
import { SessionProvider, useSession } from '../session-context';

/**
 * A server-rendered page as a visitor meets it (docs/decisions/0060): the header
 * says whether the browser is logged in once the session check answers, and a form part that hydrates on its own
 * (lib/lazy-part.tsx) keeps its server markup until its code is there, then takes typing in the same field.
 */
function Header() {
  const { loggedIn, sessionChecked } = useSession();
  return <p data-testid="header">{sessionChecked ? (loggedIn ? 'Log out' : 'Log in') : 'checking'}</p>;
}

function NameField() {
  // Reads the session as a form part may (the login form does): a change of it reaches the part's boundary.
  useSession();
  const hydrated = useHydrated();
  return <input aria-label="Name" readOnly={!hydrated} defaultValue="" />;
}

const timerConfig = { timeoutMs: 600_000, promptBeforeIdleMs: 60_000, throttleMs: 1_000, eventsThrottleMs: 200 };

function Page({ part }: { part: ReactNode }) {
  return (
    <WithQueryClient>
      <SessionProvider timerConfig={timerConfig}>
        <Header />
        {part}
      </SessionProvider>
    </WithQueryClient>
  );
}

let root: Root | undefined;
let container: HTMLElement | undefined;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = container = undefined;
});

describe('a server-rendered page while it hydrates', () => {
  it('shows the session check’s answer in the header and keeps the form part’s server field, which then takes typing', async () => {
    server.use(sessionRoute({ loggedIn: true, administersLocation: false }));
    const sessionChecks = recordRequests();
    // The server renders the part's content in its own Suspense boundary, as lazyPart's Part renders it.
    const html = renderToString(
      <Page
        part={
          <Suspense fallback={<div />}>
            <NameField />
          </Suspense>
        }
      />,
    );
    container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const serverField = container.querySelector('input')!;
    expect(serverField.readOnly).toBe(true);

    // The part's code has not arrived when the session check answers.
    let deliver: (component: typeof NameField) => void = () => undefined;
    const part = lazyPart(() => new Promise<typeof NameField>((resolve) => (deliver = resolve)));
    const recoverable: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(container!, <Page part={<part.Part />} />, {
        onRecoverableError: (error) => recoverable.push(error),
      });
    });
    await waitFor(() => expect(sessionChecks.some((url) => url.pathname === '/api/session')).toBe(true));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    // The field the server sent is still there, read-only: not replaced by an empty box while the code loads.
    expect(container.querySelector('input')).toBe(serverField);
    expect(serverField.readOnly).toBe(true);

    await act(async () => {
      deliver(NameField);
      await part.load();
    });
    await waitFor(() => expect(screen.getByTestId('header')).toHaveTextContent('Log out'));
    await waitFor(() => expect(serverField.readOnly).toBe(false));
    // Hydrated in place: the same field, no mismatch, and what is typed now stays.
    expect(container.querySelector('input')).toBe(serverField);
    fireEvent.change(serverField, { target: { value: 'Jane' } });
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Name' }).value).toBe('Jane');
    expect(recoverable).toEqual([]);
  });
});
