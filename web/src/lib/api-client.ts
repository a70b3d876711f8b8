import { PORTAL_REQUEST_HEADER, PORTAL_REQUEST_HEADER_VALUE } from '@portal/contracts/http-names';
import { GENERIC_ERROR_CODE } from '@portal/contracts/errors';
import { ErrorResponseCheck, type ResponseCheck } from '@portal/contracts/response-checks';
import { ApiError, reportSessionLost } from './api-error';

export { ApiError, onSessionLost } from './api-error';

export interface RequestOptions<T> {
  method?: 'GET' | 'POST';
  body?: unknown;
  /**
   * Parses the `data` field; the CMS's shapes change when editors change content types, so answers are checked. A zod
   * schema, or a zod-free check of one: the client itself imports no zod, so the session check on every page's first
   * load evaluates none (docs/decisions/0060).
   */
  schema?: ResponseCheck<T>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * The one HTTP client (docs/requirements/api.md#request-rules): sends cookies and the custom header with value 1 on every call, and answers
 * the response's `data` field. Failures become ApiError with the server's error code.
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const { method = 'GET', body, schema, timeoutMs } = options;
  const signals = [options.signal, timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined].filter(
    (s): s is AbortSignal => !!s,
  );
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'include',
      headers: {
        [PORTAL_REQUEST_HEADER]: PORTAL_REQUEST_HEADER_VALUE,
        Accept: 'application/json',
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: signals.length ? AbortSignal.any(signals) : undefined,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError' && options.signal?.aborted) throw err;
    throw new ApiError(0, 'Service_Unavailable');
  }

  const payload: unknown = await response.json().catch(() => undefined);
  return readApiAnswer(response.status, payload, schema, retryAfterSeconds(response.headers.get('retry-after')));
}

/** `Retry-After` in seconds (the portal sends a number of seconds; an HTTP date is not used). */
function retryAfterSeconds(header: string | null): number | undefined {
  const seconds = header === null || header.trim() === '' ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/**
 * An answer's `data` field checked against the schema, or the ApiError a non-2xx answer stands for. Shared by
 * apiRequest and the portal server's in-process content reads (entry-server.tsx).
 */
export function readApiAnswer<T = unknown>(
  status: number,
  payload: unknown,
  schema?: ResponseCheck<T>,
  retryAfter?: number,
): T {
  if (status < 200 || status > 299) {
    const parsed = ErrorResponseCheck.safeParse(payload);
    if (parsed.success) {
      if (status === 401) reportSessionLost(parsed.data.errorMessage);
      throw new ApiError(status, parsed.data.errorMessage, parsed.data.fieldErrors, parsed.data.requestId, retryAfter);
    }
    throw new ApiError(status, GENERIC_ERROR_CODE);
  }
  const data = (payload as { data?: unknown } | undefined)?.data;
  if (!schema) return data as T;
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ApiError(status, GENERIC_ERROR_CODE);
  return parsed.data;
}
