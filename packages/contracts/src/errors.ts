import { z } from 'zod/mini';
import defaultMessages from './error-codes.json';

/**
 * The error-code registry (docs/requirements/api.md#error-codes): every `errorMessage` the server can answer is listed once, in
 * `error-codes.json`, with the default text the CMS seeds into its `error-messages` collection.
 * Editors may reword a message in the CMS; the code is the contract.
 */
export const errorDefaultMessages: Readonly<Record<ErrorCode, string>> = defaultMessages;
export type ErrorCode = keyof typeof defaultMessages;
export const errorCodes = Object.keys(defaultMessages) as ErrorCode[];

/** The generic service error code, used when nothing more specific applies (docs/requirements/api.md#error-catalogue). */
export const GENERIC_ERROR_CODE = 'Generic_Error_For_Services' satisfies ErrorCode;
/** Fallback text when neither the code nor the generic code has a CMS message (docs/requirements/api.md#error-message-lookup-and-fallback). */
export const FALLBACK_ERROR_TEXT = 'An error has happened, please try again.';

/** Error envelope of every non-2xx answer (docs/requirements/api.md#response-envelope). */
export const ErrorResponseSchema = z.object({
  errorMessage: z.string(),
  fieldErrors: z.optional(z.record(z.string(), z.array(z.string()))),
  requestId: z.optional(z.string()),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
