// The faces (@font-face rules only), put into index.html as a <style> by the build (web/vite.config.ts).
import './app/fonts.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { portalTheme } from './app/theme';
import { routes } from './app/router';
import { loadMatchedRoutes, readServerState } from './app/server-state';
import { loadContentMarkdownFor } from './components/content-markdown/content-markdown';

/** Runs `work` in a task of its own, after the browser has had its turn, and gives its result. */
function nextTask<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(work()), 0));
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const serverState = readServerState(document);
if (serverState) {
  // A server-rendered page (docs/decisions/0018-server-rendering.md): hydrate the same tree once its route modules
  // (and the markdown renderer, if the page shows markdown) are here. The page is already visible, so the work is
  // spread over tasks that each leave the browser free to respond: evaluating the entry, then matching and loading
  // the route modules, then building the theme, then hydrating as a transition, which yields every few milliseconds.
  void nextTask(() => undefined)
    .then(() => Promise.all([loadMatchedRoutes(routes, window.location.pathname), loadContentMarkdownFor(document)]))
    .then(() => nextTask(portalTheme))
    .then(() =>
      startTransition(() => {
        hydrateRoot(
          root,
          <StrictMode>
            <App routes={routes} serverState={serverState} />
          </StrictMode>,
        );
      }),
    );
} else {
  // A page the server did not render (the portal's forms): its route module is loaded before the router starts, so
  // the first render has the page to show (no empty first render, issue 22).
  void loadMatchedRoutes(routes, window.location.pathname).then(() =>
    createRoot(root).render(
      <StrictMode>
        <App routes={routes} />
      </StrictMode>,
    ),
  );
}
