import { z } from 'zod/mini';
import { dataEnvelope } from './http';
import { NpiSchema, PtanSchema, TinSchema } from './identifiers';
import { EmailSchema, oneTimeTokenSchema, PhoneSchema } from './registration';
import { FIND_ADMIN_CONTACT_MESSAGE_MAX } from './field-limits';

/**
 * "Ask this administrator to contact me" (docs/requirements/portal.md#find-my-administrator): after a lookup that
 * found administrators, a visitor leaves a name, email, phone and a short message; the location's administrators get
 * it by email. The visitor never sees their addresses: the lookup answered only a `contactToken`, an opaque,
 * short-lived handle naming the location.
 */

export const FIND_ADMIN_PATH = '/api/locations/public-find-admin';

// ——— Find my administrator ———

/** `POST /api/locations/public-find-admin`. No match → 404 `Find_Admin_No_Match` (never says which was wrong). */
export const FindAdminRequest = z.strictObject({ npi: NpiSchema, ptan: PtanSchema, tin: TinSchema });
export type FindAdminRequest = z.input<typeof FindAdminRequest>;
export const LocationAdministrator = z.object({
  firstName: z.string(),
  lastName: z.string(),
  /** e.g. `j••••@example.com`: never the full address. */
  maskedEmail: z.string(),
});
export type LocationAdministrator = z.infer<typeof LocationAdministrator>;
/**
 * `locationName`: the matched location's legal name (the person sees which office the identifiers name). An empty
 * list: the location exists but nobody has registered as its administrator yet. `contactToken` (only with
 * administrators): the opaque, short-lived handle for "Ask this administrator to contact me" (find-admin.ts).
 */
export const FindAdminResponse = dataEnvelope(
  z.object({
    locationName: z.string(),
    administrators: z.array(LocationAdministrator),
    contactToken: z.optional(z.string()),
  }),
);
export type FindAdminResponse = z.infer<typeof FindAdminResponse>;

export const FIND_ADMIN_CONTACT_PATH = '/api/locations/public-find-admin/contact';
/** How long a lookup's `contactToken` is accepted. */
export const FIND_ADMIN_CONTACT_TOKEN_TTL_MS = 30 * 60 * 1000;
export { FIND_ADMIN_CONTACT_MESSAGE_MAX };

/** A name as typed: trimmed, inner runs of spaces made one; 1 to 100 characters, no control characters. */
const ContactName = z.pipe(
  z.pipe(
    z.string({ error: 'Contact_Name_Invalid' }),
    z.transform((value: string) => value.trim().replace(/\s+/g, ' ')),
  ),
  z.string().check(z.minLength(1, 'Contact_Name_Invalid'), z.maxLength(100, 'Contact_Name_Invalid')),
);

/** Tabs and line breaks are allowed in the message; other control characters (NUL among them) are not. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 9 || c === 10 || c === 13) continue;
    if (c < 32 || c === 127) return true;
  }
  return false;
}

const ContactMessage = z.pipe(
  z.pipe(
    z.string({ error: 'Contact_Message_Invalid' }),
    z.transform((value: string) => value.trim()),
  ),
  z.string().check(
    z.minLength(1, 'Contact_Message_Invalid'),
    z.maxLength(FIND_ADMIN_CONTACT_MESSAGE_MAX, 'Contact_Message_Invalid'),
    z.refine((v) => !hasControlCharacter(v), 'Contact_Message_Invalid'),
  ),
);

/** `POST /api/locations/public-find-admin/contact`. An expired or altered token: 400 `Find_Admin_Contact_Expired`. */
export const FindAdminContactRequest = z.strictObject({
  contactToken: oneTimeTokenSchema('Find_Admin_Contact_Expired'),
  name: ContactName,
  email: EmailSchema,
  phone: PhoneSchema,
  message: ContactMessage,
});
export type FindAdminContactRequest = z.input<typeof FindAdminContactRequest>;
/** The same answer however many administrators were emailed; never their names or addresses. */
export const FindAdminContactResponse = dataEnvelope(z.object({ sent: z.literal(true) }));
export type FindAdminContactResponse = z.infer<typeof FindAdminContactResponse>;
