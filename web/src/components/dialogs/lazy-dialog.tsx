import { lazy, Suspense, type ComponentType } from 'react';

/**
 * A dialog whose code loads when it is first shown (issue 39: what a page needs only after an action is not in its
 * initial JS). Rendered in place of the dialog itself, with the same props; nothing shows while its code loads (a
 * moment, on a choice the person just made).
 */
export function lazyDialog<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}
