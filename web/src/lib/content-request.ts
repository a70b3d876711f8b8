import { CONTENT_PATH, CONTENT_TIMEOUT_MS } from '@portal/contracts';
import type { z } from 'zod/mini';
import { siteConfig } from '../config/site-config';
import { apiRequest, readApiAnswer } from './api-client';

/**
 * GET from the server's content proxy. docs/requirements/api.md#request-rules: with content preview on, every /api/content request gets
 * publicationState=preview (the server honours it only when its own preview setting is on). Time-out 180000 ms.
 */
export function contentRequest<T extends z.ZodMiniType>(
  path: string,
  params: Record<string, string>,
  schema: T,
  signal?: AbortSignal,
) {
  const query = new URLSearchParams(params);
  if (siteConfig.contentPreview) query.set('publicationState', 'preview');
  const qs = query.toString();
  const url = `${CONTENT_PATH}/${path}${qs ? `?${qs}` : ''}`;
  if (serverTransport)
    return serverTransport(url).then(({ status, payload }) => readApiAnswer(status, payload, schema));
  return apiRequest(url, { schema, signal, timeoutMs: CONTENT_TIMEOUT_MS });
}

/** How the portal server reads `/api/content/…` in-process while it renders a page: the status and parsed JSON body. */
export type ContentTransport = (url: string) => Promise<{ status: number; payload: unknown }>;

let serverTransport: ContentTransport | undefined;

/**
 * Set once by the portal server (entry-server.tsx) so server-rendered pages read content through the same cache as
 * `/api/content` without an HTTP call to itself. The browser never sets it. Published content is the same for every
 * visitor, so one process-wide transport serves every render.
 */
export function setServerContentTransport(transport: ContentTransport) {
  serverTransport = transport;
}
