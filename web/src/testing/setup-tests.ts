import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { installConsoleGuard } from './console-guard';
import { server } from './msw-server';

// Hooks after a test run in reverse order: the console check registered first runs last and sees unmount errors.
installConsoleGuard();

// A file may run under `@vitest-environment node` (the HTTP client against a real server): no DOM, no MSW there.
if (typeof window !== 'undefined') {
  // jsdom does not lay out or scroll; React Router's scroll restoration and the in-page links call these.
  window.scrollTo = () => {};
  Element.prototype.scrollIntoView = () => {};

  // The first render of a lazy route transforms its modules on demand, slow on a loaded machine: give findBy* far
  // more than the default second (a wait only lasts this long when the awaited text never comes).
  configure({ asyncUtilTimeout: 15_000 });

  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  afterEach(() => {
    cleanup();
    server.resetHandlers();
    server.events.removeAllListeners();
    // Each test is a new tab: the wizards keep their values in the tab's session storage (lib/use-wizard.ts).
    window.sessionStorage.clear();
    for (const cookie of document.cookie.split('; ').filter(Boolean))
      document.cookie = `${cookie.split('=')[0]}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  });
}
