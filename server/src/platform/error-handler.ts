import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode, ErrorResponse } from '@portal/contracts/errors';
import { isDatabaseUnavailable, isTransactionConflict } from './database-unavailable';
import { PortalError } from './portal-error';

/** Fastify's own error codes that mean "the caller sent something we cannot take". */
const clientErrors: Record<string, { status: number; code: ErrorCode }> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'Invalid_Json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'Invalid_Json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'Invalid_Json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'Payload_Too_Large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'Unsupported_Media_Type' },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, code: 'Unsupported_Media_Type' },
};

function fieldErrorsOf(error: FastifyError): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  if (!hasZodFastifySchemaValidationErrors(error)) return fieldErrors;
  for (const issue of error.validation) {
    const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.') || 'body';
    (fieldErrors[path] ??= []).push(issue.message ?? 'Invalid value');
  }
  return fieldErrors;
}

/** The error code each failed request was answered with (the route audit records it as the failure's reason). */
const answeredCodes = new WeakMap<FastifyRequest, string>();

/** The error code `request` was answered with, if it failed. */
export function answeredErrorCode(request: FastifyRequest): string | undefined {
  return answeredCodes.get(request);
}

/**
 * One error envelope for every failure (docs/requirements/api.md#response-envelope): 4xx answers name an error code the SPA can look up
 * in the CMS; anything unexpected is logged with its stack and answered as a generic 500 with the request id.
 */
/** The driver's code of a database error (e.g. ECONNREFUSED, 57P01), for the log line; never the message's data. */
function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as Error).cause, depth++) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && !code.startsWith('FST_')) return code;
  }
  return undefined;
}

export function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  let status = 500;
  let body: ErrorResponse = { errorMessage: 'Generic_Error_For_Services', requestId: request.id };

  if (error instanceof PortalError) {
    status = error.status;
    body = { errorMessage: error.code, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}) };
    if (error.headers) reply.headers(error.headers);
  } else if (error.validation) {
    status = 400;
    body = { errorMessage: 'Validation_Failed', fieldErrors: fieldErrorsOf(error) };
  } else if (error.code && clientErrors[error.code]) {
    const known = clientErrors[error.code]!;
    status = known.status;
    body = { errorMessage: known.code };
  } else if (isDatabaseUnavailable(error)) {
    // The database is down or restarting: a condition of the instance, not a bug in the request. Answered at once (the
    // pool's connect timeout bounds the wait), without a stack trace per request; /readyz says the same meanwhile.
    status = 503;
    body = { errorMessage: 'Service_Unavailable' };
    reply.header('retry-after', '5');
  } else if (isTransactionConflict(error)) {
    // Aborted by a conflict with another transaction (a deadlock's victim, a serialization failure) and still so after
    // the retries of its flow (`retryOnConflict`): the request was fine, the caller may send it again at once.
    status = 503;
    body = { errorMessage: 'Service_Unavailable' };
    reply.header('retry-after', '1');
  } else if (error.statusCode === 429) {
    status = 429;
    body = { errorMessage: 'Too_Many_Requests' };
  } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Other client errors raised by Fastify or a plugin: keep the status, hide the internal message.
    status = error.statusCode;
    body = { errorMessage: status === 404 ? 'Not_Found' : status === 405 ? 'Method_Not_Allowed' : 'Validation_Failed' };
  }

  answeredCodes.set(request, body.errorMessage);
  // A PortalError is a deliberate answer whose cause the thrower has logged (e.g. the content proxy says once per
  // CMS outage that content is unavailable), so no stack trace per request.
  if (status >= 500 && error instanceof PortalError)
    request.log.debug({ errorCode: body.errorMessage, status }, 'request answered with an error');
  else if (status === 503 && body.errorMessage === 'Service_Unavailable')
    request.log.warn(
      { errorCode: body.errorMessage, status, cause: causeCode(error) },
      isTransactionConflict(error) ? 'database conflict' : 'database unavailable',
    );
  else if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ errorCode: body.errorMessage, status }, 'request rejected');
  // Every rate limit (@fastify/rate-limit's, the content proxy's, the daily counters) ends here as this answer.
  if (status === 429 && body.errorMessage === 'Too_Many_Requests')
    request.server.metrics?.rateLimitRejected(request.routeOptions.url ?? '(unmatched)');
  return reply.code(status).header('cache-control', 'no-store').send(body);
}

export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler(sendError);
});
