import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useHydrated } from './use-hydrated';

/**
 * Rendering a part of a long page when it is needed, like Angular's `@defer (on viewport)` or Astro's
 * `client:visible` (docs/decisions/0060). Opening a server-rendered page, the part is a
 * box of `reserve` height in the server's HTML and while the page hydrates; after that it renders
 *
 * - when it comes within a screen's height of the viewport (IntersectionObserver), in the next task, or
 * - when `showUpTo` is called for it or for something after it (a page's list of sections, before jumping), at once,
 * - otherwise in turn, at the browser's idle moments (`requestIdleCallback`): every part is in the page soon after
 *   it has loaded (find in page, a test looking for a part's button).
 *
 * Apart from `showUpTo`, one part renders at a time, in a transition, and the next one only once it has: several
 * parts make several short tasks, not one long one.
 *
 * A page the browser renders itself (reached by a link in the app) renders its parts at once, as before: it is
 * rendered in the navigation's transition, which yields to the browser anyway.
 * Whatever must be in the page from the start (a section's heading, for screen-reader heading navigation and for
 * jumping to it) stays outside.
 */
export function RenderWhenNear({ reserve, children }: { reserve: string; children: ReactNode }) {
  const hydrated = useHydrated();
  // True at the first render of a page the browser renders itself, false on the server and while hydrating.
  const [shown, setShown] = useState(hydrated);
  const box = useRef<HTMLDivElement>(null);
  const part = useRef<Waiting>(null);

  useEffect(() => {
    if (shown) return void stepDone(part.current);
    const element = box.current;
    if (!hydrated || !element) return;
    const waitingPart: Waiting = (part.current = { element, near: false, show: () => setShown(true) });
    const observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver(
            (entries) => entries.some((entry) => entry.isIntersecting) && comesNear(waitingPart),
            { rootMargin: '100% 0px' },
          )
        : undefined;
    observer?.observe(element);
    waiting.push(waitingPart);
    nextStep();
    return () => {
      observer?.disconnect();
      waiting.splice(waiting.indexOf(waitingPart), 1);
      // Left before it rendered (the page was left): the steps go on with the next part.
      if (!shown && step === waitingPart) stepDone(waitingPart);
    };
  }, [shown, hydrated]);

  // Busy until it renders, like a loading skeleton: the page is not settled while parts are still to render.
  return shown ? children : <div ref={box} style={{ minHeight: reserve }} aria-busy="true" data-render-when-near="" />;
}

interface Waiting {
  element: Element;
  /** Within a screen of the viewport: rendered in the next step, without waiting for an idle moment. */
  near: boolean;
  show: () => void;
}

/** The parts still to render: those near the viewport first, otherwise in the order they registered (page order). */
const waiting: Waiting[] = [];
/** The part the current step renders; `null` while a step waits for an idle moment; `undefined`: no step. */
let step: Waiting | null | undefined;

const idle = (run: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 1000 }) : setTimeout(run, 1);

/**
 * Renders the first waiting part in a step of its own (a transition, which yields to the browser while it renders),
 * unless a step is already under way: a part near the viewport in the next task, any other at the next idle moment.
 * Each step renders one part, so several parts coming near at once do not make one long task either.
 */
function nextStep() {
  if (step !== undefined || waiting.length === 0) return;
  step = null;
  if (waiting[0]!.near) setTimeout(takeStep, 0);
  else idle(takeStep);
}

function takeStep() {
  if (step !== null) return; // an earlier idle callback, when a near part went first
  step = waiting[0];
  if (step) startTransition(step.show);
}

function comesNear(part: Waiting) {
  if (part.near || !waiting.includes(part)) return;
  part.near = true;
  waiting.splice(waiting.indexOf(part), 1);
  const firstFar = waiting.findIndex((other) => !other.near);
  waiting.splice(firstFar === -1 ? waiting.length : firstFar, 0, part);
  if (step === null) setTimeout(takeStep, 0);
  else nextStep();
}

/** A part has rendered (or gone): if it was the current step's, the next one waits for the next idle moment. */
function stepDone(part: Waiting | null) {
  if (!part || step !== part) return;
  step = undefined;
  nextStep();
}

/**
 * Renders at once (synchronously) every waiting part that is in `element` or before it in the page, e.g. before
 * jumping to a section, so that nothing above it changes height after the jump.
 */
export function showUpTo(element: Element) {
  const due = waiting.filter(
    (part) =>
      element.contains(part.element) ||
      Boolean(element.compareDocumentPosition(part.element) & Node.DOCUMENT_POSITION_PRECEDING),
  );
  if (due.length) flushSync(() => due.forEach((part) => part.show()));
}
