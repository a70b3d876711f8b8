import { http } from 'msw';
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

/**
 * Answers `route`'s POSTs with `answers` in turn (the last one again after that) and records each request's JSON
 * body, in order (undefined for a request without one).
 */
export function answerPostsInTurn<Body = unknown>(route: string, answers: readonly (() => Response)[]): Body[] {
  const bodies: Body[] = [];
  server.use(
    http.post(route, async ({ request }) => {
      const text = await request.text();
      bodies.push(text ? (JSON.parse(text) as Body) : (undefined as Body));
      return answers[Math.min(bodies.length - 1, answers.length - 1)]!();
    }),
  );
  return bodies;
}
