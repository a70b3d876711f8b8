import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/client';

/** The PostgreSQL channel on which an instance tells the others that the CMS changed something. */
export const INVALIDATION_CHANNEL = 'portal_content_invalidated';

export interface InvalidationBroadcast {
  /** Tells every other instance to drop its cached content (this one has already done so). */
  publish(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Keeps several instances' content caches in step (docs/decisions/0019): the CMS webhook reaches one instance, which
 * invalidates its own cache and NOTIFYs the others on the shared database; each of them invalidates on the
 * notification. A message carries the sender's id, so the sender does not invalidate twice. When the listening
 * connection was lost, notifications may have been missed: the cache is invalidated then too (the next reads ask
 * the CMS again, which is cheap next to serving an edit late).
 */
export async function startInvalidationBroadcast(
  database: Pick<DatabaseHandle, 'notify' | 'listen'>,
  invalidate: () => void,
  log: FastifyBaseLogger,
): Promise<InvalidationBroadcast> {
  const instanceId = randomUUID();
  let lostSince: number | undefined;
  const unlisten = await database.listen(
    INVALIDATION_CHANNEL,
    (sender) => {
      if (sender === instanceId) return;
      invalidate();
      log.info('content cache invalidated: another instance received the CMS webhook');
    },
    {
      onReconnect() {
        invalidate();
        log.info(
          { lostMs: lostSince === undefined ? undefined : Date.now() - lostSince },
          'listening for content invalidations again; content cache invalidated in case one was missed',
        );
        lostSince = undefined;
      },
      onError(err) {
        const reason = err instanceof Error ? err.message : 'unknown failure';
        if (lostSince !== undefined) return log.debug({ reason }, 'still not listening for content invalidations');
        lostSince = Date.now();
        log.warn(
          { reason },
          'the connection listening for content invalidations failed; reconnecting (this instance may serve content up to CONTENT_CACHE_TTL_MS old meanwhile)',
        );
      },
    },
  );
  return {
    publish: () => database.notify(INVALIDATION_CHANNEL, instanceId),
    close: unlisten,
  };
}
