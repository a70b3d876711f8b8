import { setupServer } from 'msw/node';
import { contentHandlers } from './content-handlers';
import { adminConsoleHandlers } from './admin-console-handlers';
import { sessionHandlers } from './session-handlers';

/** Answers the app's fetch calls in unit tests; a request no handler covers fails the test (see setup-tests). */
export const server = setupServer(...contentHandlers, ...sessionHandlers, ...adminConsoleHandlers);

/** Records the URL of every request the app sends, to count tries or read query parameters. */
export function recordRequests(): URL[] {
  const seen: URL[] = [];
  server.events.on('request:start', ({ request }) => {
    seen.push(new URL(request.url));
  });
  return seen;
}
