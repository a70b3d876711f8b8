import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod/mini';
import { lazyResolver } from './lazy-resolver';

/** A request's schema, or how to load it: a loader builds it at the form's first validation (lazy-resolver.ts). */
export type SchemaSource<S> = S | (() => Promise<S>);

/**
 * A react-hook-form resolver that checks the form's values as the request the contracts define: `toRequest` turns
 * the values into the request body (adds the step's token, drops what the server does not take), and the request's
 * own schema — the one the server checks — gives the field errors (its messages are error codes or the
 * identifiers' sentences). `messages` names a message for a field whose schema has none (an empty choice);
 * `renamed` moves a request field's error to the form field it comes from. `schema` may be a loader
 * (`() => import(…).then(…)`): the schema module, and zod, then load and are built at the first validation.
 * `toRequest` gets the form's `context` too (react-hook-form's option, read at every validation): what the page
 * holds now, for a resolver built once.
 */
export function requestResolver<V extends FieldValues, S extends z.ZodMiniType>(
  schema: SchemaSource<S>,
  toRequest: (values: V, context: unknown) => unknown,
  messages: Record<string, string> = {},
  renamed: Record<string, string> = {},
): Resolver<V, unknown, z.output<S>> {
  const resolve = lazyResolver(async () =>
    zodResolver((typeof schema === 'function' ? await schema() : schema) as never, {
      error: (issue) => messages[String(issue.path?.[0])],
    }),
  );
  return async (values, context, options) => {
    const result = await resolve(toRequest(values, context) as never, context, options as never);
    const errors: Record<string, unknown> = { ...result.errors };
    for (const [from, to] of Object.entries(renamed))
      if (errors[from]) {
        errors[to] ??= errors[from];
        delete errors[from];
      }
    return { ...result, errors } as never;
  };
}
