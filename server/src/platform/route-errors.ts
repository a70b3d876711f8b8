import type { ErrorCode } from '@portal/contracts/errors';

/**
 * The error answers a route may give beyond the ones every route shares, by HTTP status: declared in the route's
 * `config.errors` (e.g. `{ 404: ['Find_Admin_No_Match'] }`), or carried by a guard hook tagged with
 * `guardErrors`. The API reference lists them (platform/openapi.ts, docs/decisions/0033-openapi-metrics-deployment.md).
 */
export type RouteErrors = Partial<Record<number, readonly ErrorCode[]>>;

/**
 * Success answers a route sends without a JSON response schema (no body, a script, content relayed from the CMS):
 * documented only, never used to validate or serialize.
 */
export type RouteAnswers = Partial<Record<number, { description: string; contentType?: string }>>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Errors this route answers besides the shared ones (validation, CSRF, rate limit, 500, 503). */
    errors?: RouteErrors;
    /** Success answers without a JSON response schema, for the API reference. */
    answers?: RouteAnswers;
  }
}

const GUARD_ERRORS = Symbol('portal.guardErrors');

/** Tags a preValidation/preHandler guard with the errors it answers, so every route using it documents them. */
export function guardErrors<T extends object>(guard: T, errors: RouteErrors): T {
  Object.defineProperty(guard, GUARD_ERRORS, { value: errors });
  return guard;
}

/** The errors a guard was tagged with, if any. */
export function errorsOfGuard(guard: unknown): RouteErrors | undefined {
  return typeof guard === 'function'
    ? ((guard as unknown as Record<symbol, RouteErrors | undefined>)[GUARD_ERRORS] ?? undefined)
    : undefined;
}

/** Merges error declarations status by status, each code once. */
export function mergeRouteErrors(...all: (RouteErrors | undefined)[]): Record<number, ErrorCode[]> {
  const merged: Record<number, ErrorCode[]> = {};
  for (const errors of all)
    for (const [status, codes] of Object.entries(errors ?? {}))
      for (const code of codes ?? []) {
        const list = (merged[Number(status)] ??= []);
        if (!list.includes(code)) list.push(code);
      }
  return merged;
}
