import { z } from 'zod/mini';
export * from './http-names';

/** Success envelope: the SPA reads the `data` field of every answer (docs/requirements/api.md#response-envelope). */
export function dataEnvelope<T extends z.ZodMiniType>(data: T) {
  return z.object({ data });
}

export const HealthSchema = z.object({ status: z.literal('ok') });
export const ReadinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.enum(['up', 'down']),
  migrations: z.enum(['applied', 'pending', 'unknown']),
});
export type Readiness = z.infer<typeof ReadinessSchema>;

/** Error envelope of every non-2xx answer (docs/requirements/api.md#response-envelope). */
export const ErrorResponseSchema = z.object({
  errorMessage: z.string(),
  fieldErrors: z.optional(z.record(z.string(), z.array(z.string()))),
  requestId: z.optional(z.string()),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
