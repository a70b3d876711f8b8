import '@fontsource/lato/latin-400.css';
import '@fontsource/lato/latin-700.css';
import '@fontsource/source-sans-pro/latin-400.css';
import '@fontsource/source-sans-pro/latin-700.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { routes } from './app/router';
import { loadMatchedRoutes, readServerState } from './app/server-state';
import { loadContentMarkdownFor } from './components/content-markdown/lazy-content-markdown';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const serverState = readServerState(document);
if (serverState) {
  // A server-rendered page (docs/decisions/0018-server-rendering.md): hydrate the same tree once its route modules
  // (and the markdown renderer, if the page shows markdown) are here. As a transition, hydration yields to the
  // browser every few milliseconds instead of running as one long task (the page is already visible).
  void Promise.all([loadMatchedRoutes(routes, window.location.pathname), loadContentMarkdownFor(document)]).then(() =>
    startTransition(() => {
      hydrateRoot(
        root,
        <StrictMode>
          <App serverState={serverState} />
        </StrictMode>,
      );
    }),
  );
} else {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
