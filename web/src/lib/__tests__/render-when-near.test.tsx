import { act, render, screen, waitFor } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RenderWhenNear, showUpTo } from '../render-when-near';

/** A long page's sections: each heading in the page, each content rendered when needed. */
function Page() {
  return (
    <>
      {['one', 'two', 'three'].map((name) => (
        <section key={name} id={name} aria-label={name}>
          <h2>{name}</h2>
          <RenderWhenNear reserve="5rem">
            <p>content of {name}</p>
          </RenderWhenNear>
        </section>
      ))}
    </>
  );
}

let root: Root | undefined;
let container: HTMLElement | undefined;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = container = undefined;
  vi.unstubAllGlobals();
});

/** Server markup in the document, then hydrated, as opening the page does. */
async function openServerRendered() {
  const html = renderToString(<Page />);
  container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  await act(async () => {
    root = hydrateRoot(container!, <Page />, { onRecoverableError: (error) => expect.fail(String(error)) });
  });
  return html;
}

describe('RenderWhenNear (docs/decisions/0060)', () => {
  it('opening a server-rendered page: headings and reserved boxes first, then every part in idle steps, one at a time', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
    const html = await openServerRendered();
    expect(html).toContain('<h2>three</h2>');
    expect(html).not.toContain('content of');
    expect(screen.getAllByRole('heading')).toHaveLength(3);
    expect(screen.queryByText(/content of/)).toBeNull();

    // One part per idle moment: the next is asked for only once the previous one has rendered.
    const shown = () => screen.queryAllByText(/content of/).map((p) => p.textContent);
    for (const [step, name] of ['one', 'two', 'three'].entries()) {
      await waitFor(() => expect(idle).toHaveLength(step + 1));
      await act(async () => idle[step]!());
      await waitFor(() => expect(shown()).toContain(`content of ${name}`));
      expect(shown()).toHaveLength(step + 1);
    }
  });

  it('showUpTo renders at once every part up to a section, none after it', async () => {
    vi.stubGlobal('requestIdleCallback', () => 0);
    await openServerRendered();
    await waitFor(() => expect(document.querySelectorAll('[data-render-when-near]')).toHaveLength(3));
    act(() => showUpTo(document.getElementById('two')!));
    expect(screen.getByText('content of one')).toBeInTheDocument();
    expect(screen.getByText('content of two')).toBeInTheDocument();
    expect(screen.queryByText('content of three')).toBeNull();
  });

  it('a page the browser renders itself shows every part at once', () => {
    render(<Page />);
    expect(screen.getAllByText(/content of/)).toHaveLength(3);
  });
});
