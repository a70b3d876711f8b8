import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver whose schema is loaded and built when the form is first validated (its first submit),
 * not when the page's code is evaluated (docs/decisions/0060): building the contracts'
 * zod schemas was the longest task of a form page's load. `load` imports the schema module (and zod) and answers the
 * resolver; it runs once, and a failed load is tried again at the next validation. Typing is never held up: the
 * fields are plain inputs, and react-hook-form waits for an async resolver before it submits.
 */
export function lazyResolver<V extends FieldValues, C = unknown, T = V>(
  load: () => Promise<Resolver<V, C, T>>,
): Resolver<V, C, T> {
  let loading: Promise<Resolver<V, C, T>> | undefined;
  return async (values, context, options) => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return (await loading)(values, context, options);
  };
}
