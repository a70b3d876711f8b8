import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_STALE_HEADER } from '@portal/contracts/http';
import { etagMatches, type CachedAnswer } from './cache';
import { pickForm } from './encodings';

export interface SendAnswerOptions {
  cacheControl: string;
  /** Served past its TTL or as the last good copy: marked with X-Content-Stale. */
  stale?: boolean;
  /** Sent instead of the answer's own content type (uploads narrow it). */
  contentType?: string;
  /** Request headers the answer varies with besides Accept-Encoding (rendered pages: cookie, user-agent). */
  vary?: string;
}

/**
 * Replays a cached answer in the form the client accepts (brotli, gzip or identity, stored with the entry, so
 * nothing is compressed here) with that form's ETag: 304 when the browser's copy is current. Anything stored through
 * ResponseCache (content, uploads, rendered pages) is sent this way. Routes using it opt out of @fastify/compress
 * (`compress: false`). Synchronous: a fresh hit is answered without a promise (docs/decisions/0010).
 */
export function sendCachedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  options: SendAnswerOptions,
): FastifyReply {
  const form = pickForm(answer, request.headers['accept-encoding']);
  reply.header('etag', form.etag).header('cache-control', options.cacheControl);
  const vary = [options.vary, answer.encoded.br || answer.encoded.gzip ? 'accept-encoding' : undefined].filter(Boolean);
  if (vary.length > 0) reply.header('vary', vary.join(', '));
  if (options.stale) reply.header(CONTENT_STALE_HEADER, '1');
  if (answer.location) reply.header('location', answer.location);
  if (etagMatches(request.headers['if-none-match'], form.etag)) return reply.code(304).send();
  if (form.encoding) reply.header('content-encoding', form.encoding);
  return reply.header('content-type', options.contentType ?? answer.contentType).send(form.body);
}
