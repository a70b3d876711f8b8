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

// The error envelope's schema is in http.ts, beside the success envelope: this module stays without zod, for the
// browser's first download (docs/requirements/platform.md#web-budget).
export type { ErrorResponse } from './http';

/** docs/requirements/api.md#error-catalogue: the text shown for unpublished or unknown content. */
export const CONTENT_NOT_FOUND_TEXT = 'This content was not found.';
