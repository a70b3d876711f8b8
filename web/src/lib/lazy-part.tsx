import { lazy, memo, Suspense, type ComponentType, type ReactNode } from 'react';

/**
 * A part of a page that hydrates on its own (docs/decisions/0060): its code is not in
 * the page's route module but in a chunk of its own, which starts loading when the route module has loaded (the
 * route's `lazy` calls `load`, see `pageWithParts` in app/router.tsx). On a server-rendered page, React keeps the
 * part's server markup meanwhile (a dehydrated Suspense boundary: form fields stay read-only, as every form's do until
 * they hydrate) and hydrates it when its code is there, in a pass of its own that yields to the browser. The rest of
 * the page hydrates without waiting for it, and evaluating the part's code is a task of its own instead of a part of
 * the page's. Reached by a link in the app, the route waits for the part, so the page never shows without it.
 */
export interface LazyPart<P> {
  /** Starts loading the part's code, once; the route's `lazy` calls it. */
  load: () => Promise<unknown>;
  /** The part in a Suspense boundary of its own; until its code is there, a box of `reserve` height (CSS length). */
  Part: ComponentType<P>;
}

export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  options: { reserve?: string } = {},
): LazyPart<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () => (loading ??= load());
  const Lazy = lazy(async () => ({ default: await start() }));
  // Memoized: a render of the page with the same props leaves a part that is still server markup alone (a new render
  // of its boundary before it has hydrated would make React hydrate it at once, in the same task).
  const Part = memo(function Part(props: P): ReactNode {
    return (
      // Only a page the browser renders itself (or a part shown later by a state change) ever shows this.
      <Suspense fallback={<div style={{ minHeight: options.reserve }} />}>
        <Lazy {...props} />
      </Suspense>
    );
  });
  return { load: start, Part };
}
