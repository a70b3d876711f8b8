import { z } from 'zod';
import { auditEvents } from '../db/schema';
import type { DbExecutor } from './db-executor';

/**
 * The only keys an audit event's details may carry (docs/requirements/portal.md#rate-limits-and-audit). The schema is
 * closed: a password, code, security answer, date of birth or TIN has no key to go in, at compile time (excess
 * property check) and at run time (strict parse). Strings are short facts, never free text from a form.
 */
export const AuditDetails = z.strictObject({
  reason: z.string().max(64).optional(),
  method: z.enum(['password', 'totp', 'passkey', 'recovery_code', 'email_link']).optional(),
  field: z.enum(['email', 'phone', 'password', 'mfa', 'security_answers', 'name', 'status', 'role']).optional(),
  count: z.number().int().optional(),
  locationId: z.uuid().optional(),
  npi: z
    .string()
    .regex(/^\d{10}$/)
    .optional(),
  ptan: z.string().max(10).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  sessionCount: z.number().int().optional(),
  /**
   * The help desk's reason for an action (docs/requirements/help-desk.md#actions): the one free text an event holds,
   * written by contractor staff, never by the person or a visitor.
   */
  operatorReason: z.string().max(500).optional(),
  /** Which identity facts the operator checked before an MFA reset (names from the fixed list, never the values). */
  identityChecks: z.array(z.string().max(40)).max(10).optional(),
  /** What an operator viewed in full (`email`, `phone`). */
  revealed: z.enum(['email', 'phone']).optional(),
});
export type AuditDetails = z.input<typeof AuditDetails>;

export interface AuditEvent {
  /** Who acted: a user id, `system`, or null when unknown (e.g. a failed login for an unknown username). */
  actor: string | null;
  action: string;
  /** What was acted on: a user id, a location id, or `unknownUsernameTarget` of a name no account has. */
  target?: string | null;
  outcome: 'success' | 'failure';
  ip?: string | null;
  requestId?: string | null;
  details?: AuditDetails;
}

/** A UUID, alone (a user or location id) or behind the kind of thing it names (`operator:<uuid>`, modules/ops). */
const UUID = /^(?:[a-z_]+:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `unknownUsernameTarget` (identity/unknown-username.ts). */
const UNKNOWN_USERNAME_TARGET = /^unknown:[0-9a-f]{16}$/;

/**
 * Nine digits in a row (with optional dashes) look like a TIN or SSN: only the last four are kept. A user, location or
 * operator id (a UUID, `operator:<uuid>` too) and an unknown username's fingerprint are left whole: their digits are
 * random (one fingerprint in about 19 has nine in a row, and a UUID such as `…04145-1792…` has them across its dash),
 * and a masked one could no longer find or group its events, nor be read back as an id.
 */
export function maskTinLike(value: string): string {
  if (UUID.test(value) || UNKNOWN_USERNAME_TARGET.test(value)) return value;
  return value.replace(
    /\d{2}-?\d{3}-?\d{4}|\d{3}-\d{2}-\d{4}/g,
    (match) => `*****${match.replace(/-/g, '').slice(-4)}`,
  );
}

const auditListeners = new Set<(event: AuditEvent) => void>();

/**
 * Calls `listener` after each audit event is written (metrics count login failures and lockouts here, the one place
 * they happen). In a transaction the call comes before the commit, so a rolled-back event is still counted.
 * Answers a function that stops listening.
 */
export function onAuditRecorded(listener: (event: AuditEvent) => void): () => void {
  auditListeners.add(listener);
  return () => auditListeners.delete(listener);
}

/** The row `recordAudit` writes for `event`: details checked against the closed schema, TIN-like values masked. */
export function auditRow(event: AuditEvent): typeof auditEvents.$inferInsert {
  const details = event.details === undefined ? null : AuditDetails.parse(event.details);
  if (details?.reason !== undefined) details.reason = maskTinLike(details.reason);
  if (details?.ptan !== undefined) details.ptan = maskTinLike(details.ptan);
  return {
    actor: event.actor === null ? null : maskTinLike(event.actor),
    action: event.action,
    target: event.target == null ? null : maskTinLike(event.target),
    outcome: event.outcome,
    ip: event.ip ?? null,
    requestId: event.requestId ?? null,
    details,
  };
}

/**
 * Tells the listeners (`onAuditRecorded`) that `event` was written. `recordAudit` does it; a statement that wrote
 * the event's `auditRow` itself (one round trip for a change and its event) calls it after that statement.
 */
export function auditWritten(event: AuditEvent): void {
  for (const listener of auditListeners) listener(event);
}

/** Writes one audit event, in the caller's transaction when given one (the event exists only if the change commits). */
export async function recordAudit(db: DbExecutor, event: AuditEvent): Promise<void> {
  await db.insert(auditEvents).values(auditRow(event));
  auditWritten(event);
}
