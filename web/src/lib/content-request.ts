import { CONTENT_PATH, CONTENT_TIMEOUT_MS } from '@portal/contracts';
import type { z } from 'zod/mini';
import { siteConfig } from '../config/site-config';
import { apiRequest } from './api-client';

/**
 * GET from the server's content proxy. docs/requirements/api.md#request-rules: with content preview on, every /api/content request gets
 * publicationState=preview (the server honours it only when its own preview setting is on). Time-out 180000 ms.
 */
export function contentRequest<T extends z.core.$ZodType>(path: string, params: Record<string, string>, schema: T, signal?: AbortSignal) {
  const query = new URLSearchParams(params);
  if (siteConfig.contentPreview) query.set('publicationState', 'preview');
  const qs = query.toString();
  return apiRequest(`${CONTENT_PATH}/${path}${qs ? `?${qs}` : ''}`, { schema, signal, timeoutMs: CONTENT_TIMEOUT_MS });
}
