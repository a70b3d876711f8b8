import { z } from 'zod/mini';
import {
  noControlCharacters as noControlCharactersRule,
  noControlCharactersExceptLines as noControlCharactersExceptLinesRule,
} from './fields';
import { dataEnvelope } from './http';

/**
 * DDE access requests (docs/requirements/portal.md#dde-access-request): the logged-in user's locations with their EDI
 * enrollments (get-easi), the request, and the user's own requests. Requests are strict objects: an unknown field is a
 * 400 `Validation_Failed`.
 */

/** Control characters (NUL among them, which PostgreSQL text refuses) never belong in a typed field. */
const noControlCharacters = noControlCharactersRule();
/** Multi-line text: line breaks and tabs allowed, other control characters not. */
const noControlCharactersExceptLines = noControlCharactersExceptLinesRule();

export const GET_EASI_PATH = '/api/providers/get-easi';
export const DDE_SUBMIT_PATH = '/api/dde-access/submit';
export const DDE_REQUESTS_PATH = '/api/dde-access/requests';

// ——— DDE access ———

/** The longest comment a DDE access request may carry (the form counts down to it). */
export const DDE_COMMENTS_MAX = 500;

export const ddeAccessTypes = ['inquiry', 'inquiry-and-claims'] as const;
export const DdeAccessType = z.enum(ddeAccessTypes);
export type DdeAccessType = z.infer<typeof DdeAccessType>;
export const ediEnrollmentStatuses = ['active', 'pending', 'inactive'] as const;
export const EdiEnrollmentStatus = z.enum(ediEnrollmentStatuses);
export type EdiEnrollmentStatus = z.infer<typeof EdiEnrollmentStatus>;
export const ddeRequestTypes = ['new', 'change', 'remove'] as const;
export const DdeRequestType = z.enum(ddeRequestTypes);
export type DdeRequestType = z.infer<typeof DdeRequestType>;

/** The location's EDI/DDE enrollment facts ("EASI": electronic access submitter information). */
export const EdiEnrollment = z.object({
  submitterId: z.string(),
  networkServiceVendor: z.string(),
  ddeAccessType: DdeAccessType,
  status: EdiEnrollmentStatus,
});
export type EdiEnrollment = z.infer<typeof EdiEnrollment>;

/**
 * `POST /api/providers/get-easi` (logged in). Without `locationId`: every location the user is linked to; with it:
 * that one only (403 `Dde_Location_Not_Linked` when the user is not linked to it).
 */
export const GetEasiRequest = z.strictObject({ locationId: z.optional(z.uuid()) });
export type GetEasiRequest = z.input<typeof GetEasiRequest>;
export const EasiLocation = z.object({
  locationId: z.string(),
  legalName: z.string(),
  npi: z.string(),
  ptan: z.string(),
  jurisdiction: z.string(),
  lineOfBusiness: z.string(),
  /** null: the location has no EDI enrollment on file (the form starts empty). */
  enrollment: z.nullable(EdiEnrollment),
});
export type EasiLocation = z.infer<typeof EasiLocation>;
export const GetEasiResponse = dataEnvelope(z.object({ locations: z.array(EasiLocation) }));
export type GetEasiResponse = z.infer<typeof GetEasiResponse>;

/** Submitter ids are letters and digits (up to 15). */
const SubmitterId = z.pipe(
  z.pipe(
    z.string(),
    z.transform((v) => v.trim().toUpperCase()),
  ),
  z.string().check(z.regex(/^[A-Z0-9]{1,15}$/, 'Enter the submitter ID: 1 to 15 letters or numbers.')),
);
const ShortText = (max: number) =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((v) => v.trim()),
    ),
    z.string().check(z.minLength(1), z.maxLength(max), noControlCharacters),
  );

/**
 * `POST /api/dde-access/submit` (logged in, linked to the location). `idempotencyKey` is generated once per form
 * (a UUID): a retry with the same key answers the first request's reference number and stores nothing new; the same
 * key with different details is 409 `Dde_Idempotency_Conflict`.
 */
export const DdeSubmitRequest = z.strictObject({
  idempotencyKey: z.uuid(),
  locationId: z.uuid(),
  requestType: DdeRequestType,
  ddeAccessType: DdeAccessType,
  submitterId: SubmitterId,
  networkServiceVendor: ShortText(100),
  contactPhone: z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((v) => v.replace(/[\s().-]/g, '')),
      ),
      z.string().check(z.regex(/^\+?\d{10,15}$/, 'Enter a phone number of 10 to 15 digits.')),
    ),
  ),
  comments: z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((v) => v.trim()),
      ),
      z.string().check(z.maxLength(DDE_COMMENTS_MAX), noControlCharactersExceptLines),
    ),
  ),
});
export type DdeSubmitRequest = z.input<typeof DdeSubmitRequest>;
export const DdeSubmitResponse = dataEnvelope(
  z.object({
    /** e.g. `DDE-2026-000123`. */
    referenceNumber: z.string(),
    submittedAt: z.string(),
  }),
);
export type DdeSubmitResponse = z.infer<typeof DdeSubmitResponse>;

/** How many of the user's DDE requests the list answers, newest first (the portal home shows them). */
export const DDE_REQUEST_LIST_LIMIT = 20;
/** One of the user's own DDE access requests, as the portal home lists it. */
export const DdeRequestSummary = z.object({
  /** e.g. `DDE-2026-000123`. */
  referenceNumber: z.string(),
  /** ISO date-time of the submission. */
  submittedAt: z.string(),
  requestType: DdeRequestType,
  /** The provider location the request is for. */
  legalName: z.string(),
  /** `received` until the EDI team works on it. */
  status: z.string(),
});
export type DdeRequestSummary = z.infer<typeof DdeRequestSummary>;
/** `GET /api/dde-access/requests` (logged in): the user's own requests, newest first, at most `DDE_REQUEST_LIST_LIMIT`. */
export const DdeRequestListResponse = dataEnvelope(z.object({ requests: z.array(DdeRequestSummary) }));
export type DdeRequestListResponse = z.infer<typeof DdeRequestListResponse>;
