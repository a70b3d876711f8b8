import { z } from 'zod/mini';
import { dataEnvelope } from './http';

/**
 * Annual recertification (docs/requirements/staff-accounts.md#annual-recertification): the links of an
 * administrator's locations falling due, the keep-or-remove decisions in bulk (the help desk's restore of a
 * location whose access was suspended is in the console: ops.ts). Requests are strict objects: an unknown field is a 400 `Validation_Failed`.
 */

export const RECERTIFICATIONS_PATH = '/api/admin/recertifications';

/** Links due within this many days show on the recertification screen (and reminders start). */
export const RECERTIFICATION_DUE_DAYS = 45;
/** The most decisions one submit may carry. */
export const RECERTIFICATION_BATCH_MAX = 500;

export const RecertificationDecisionValue = z.enum(['keep', 'remove']);
export type RecertificationDecisionValue = z.infer<typeof RecertificationDecisionValue>;

/** A person–location link falling due (within 45 days) or overdue, of one of the caller's locations. */
export const DueRecertification = z.object({
  userId: z.string(),
  locationId: z.string(),
  name: z.string(),
  username: z.string(),
  legalName: z.string(),
  npi: z.string(),
  role: z.enum(['administrator', 'user']),
  certifiedUntil: z.string(),
  /** Past its date: the link is suspended until an administrator keeps it. */
  overdue: z.boolean(),
});
export type DueRecertification = z.infer<typeof DueRecertification>;

/** `GET /api/admin/recertifications`: due and overdue links of the caller's locations, overdue first. */
export const RecertificationListResponse = dataEnvelope(z.object({ links: z.array(DueRecertification) }));
export type RecertificationListResponse = z.infer<typeof RecertificationListResponse>;

export const RecertificationDecision = z.strictObject({
  userId: z.uuid(),
  locationId: z.uuid(),
  decision: RecertificationDecisionValue,
});
export type RecertificationDecision = z.infer<typeof RecertificationDecision>;

/**
 * `POST /api/admin/recertifications` (recent login): all decisions apply or none (404 `Not_Found` when one names a
 * link that is not due on one of the caller's locations, or the caller's own link).
 */
export const RecertificationRequest = z.strictObject({
  decisions: z.array(RecertificationDecision).check(z.minLength(1), z.maxLength(RECERTIFICATION_BATCH_MAX)),
});
export type RecertificationRequest = z.infer<typeof RecertificationRequest>;
export const RecertificationResponse = dataEnvelope(z.object({ kept: z.number(), removed: z.number() }));
export type RecertificationResponse = z.infer<typeof RecertificationResponse>;
