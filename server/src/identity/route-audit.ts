import type { FastifyInstance, onRequestAbortHookHandler, onRequestHookHandler, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { onAuditRecorded, recordAudit } from '../platform/audit';
import { answeredErrorCode } from '../platform/error-handler';

/**
 * What a state-changing route declares about audit (docs/decisions/0036-declarative-audit.md): the action its attempts
 * are recorded under, or why it is not a user action and records nothing.
 */
export type RouteAudit = { action: string } | { exempt: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every POST/PUT/PATCH/DELETE route (a test walks the route table). */
    audit?: RouteAudit;
  }
}

/**
 * "Every attempt of every flow is audited" (docs/requirements/portal.md#rate-limits-and-audit), for every route that
 * declares an action. Services write their own, richer events; when a request of such a route ends and no event
 * carried its request id (input refused by the schema, a missing session, the CSRF check or a rate limit, or a flow
 * with nothing more to say), this writes one: the route's action, the session's user when known, and the outcome
 * from the status, with the answered error code as the reason. Never anything from the request body: the details
 * schema is closed.
 */
export const routeAuditPlugin = fp(async (app: FastifyInstance) => {
  /** Request ids of audited routes in flight, and whether an event was written for them. */
  const inFlight = new Map<string, boolean>();
  const stopListening = onAuditRecorded((event) => {
    if (event.requestId && inFlight.has(event.requestId)) inFlight.set(event.requestId, true);
  });
  app.addHook('onClose', async () => stopListening());

  const watch: onRequestHookHandler = (request, _reply, done) => {
    inFlight.set(request.id, false);
    done();
  };
  // Callback style, not async: most requests (a success its service audited) end here with no promise made.
  const fillGap: onResponseHookHandler = (request, reply, done) => {
    const written = inFlight.get(request.id);
    inFlight.delete(request.id);
    const declared = request.routeOptions.config.audit;
    if (written !== false || !declared || !('action' in declared)) return done();
    const failed = reply.statusCode >= 400;
    const userId = request.portalSession?.userId ?? null;
    // A console (help-desk) request: the operator acted, on the person or location of its path.
    const operator = request.operator ? `operator:${request.operator.operatorId}` : null;
    const params = request.params as Record<string, string | undefined> | undefined;
    recordAudit(app.database.db, {
      actor: operator ?? userId,
      action: declared.action,
      target: operator ? (params?.userId ?? params?.locationId ?? operator) : userId,
      outcome: failed ? 'failure' : 'success',
      ip: request.ip,
      requestId: request.id,
      ...(failed ? { details: { reason: answeredErrorCode(request) ?? `http_${reply.statusCode}` } } : {}),
    })
      .catch((err: unknown) => request.log.warn({ err }, 'could not record the audit event of a request'))
      .finally(() => done());
  };
  const forget: onRequestAbortHookHandler = (request, done) => {
    inFlight.delete(request.id);
    done();
  };

  app.addHook('onRoute', (route) => {
    const declared = route.config?.audit;
    if (!declared || !('action' in declared)) return;
    // First of the route's onRequest hooks, so a refusal by a later one (CSRF, rate limit) is still seen.
    route.onRequest = [watch, ...[route.onRequest ?? []].flat()];
    route.onResponse = [...[route.onResponse ?? []].flat(), fillGap];
    route.onRequestAbort = [...[route.onRequestAbort ?? []].flat(), forget];
  });
});
