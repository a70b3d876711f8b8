import type { ErrorResponse } from './http';

/**
 * Zod-free checks of the two answers every page's first load reads: the session check's `GET /api/session` and the
 * error envelope (docs/decisions/0060). Evaluating zod and the schema graph of
 * `auth.ts` took 31–77 ms at 4× CPU slowdown on every page; these do what their schemas do (`SessionState` in auth.ts,
 * `ErrorResponseSchema` in http.ts: the same fields, unknown fields dropped), and response-checks.test.ts runs both on
 * the same answers so the two cannot drift. `SessionStateFields` is the session schema's type written out (this file
 * must not import auth.ts, which imports it); auth.ts fails the type check when the two differ, and a field of the
 * type without its rule here fails it too.
 */

/** Every stage of a login that is not complete yet (`PendingLoginStep` in auth.ts is built from this list). */
export const PENDING_LOGIN_STEPS = ['mfa', 'mfa-enroll', 'password-change'] as const;
/** Why someone else ended a browser's session (error codes, docs/requirements/session.md#forced-logout). */
export const SESSION_ENDED_CODES = [
  'Session_Ended_Account_Disabled',
  'Session_Ended_Mfa_Reset',
  'Session_Ended_Account_Locked',
] as const;
export type SessionEndedCode = (typeof SESSION_ENDED_CODES)[number];

/** `SessionState` (auth.ts) as a plain type: auth.ts checks that its schema's type is this one. */
export interface SessionStateFields {
  loggedIn: boolean;
  endedBecause?: SessionEndedCode | undefined;
  username?: string | undefined;
  displayName?: string | undefined;
  idleSecondsLeft?: number | undefined;
  absoluteSecondsLeft?: number | undefined;
  mfaPending?: (typeof PENDING_LOGIN_STEPS)[number] | undefined;
  recertificationOverdue?: boolean | undefined;
  administersLocation?: boolean | undefined;
}

interface FieldRule {
  test: (value: unknown) => boolean;
  optional: boolean;
}
const required = (test: FieldRule['test']): FieldRule => ({ test, optional: false });
const optional = (test: FieldRule['test']): FieldRule => ({ test, optional: true });

const isString = (value: unknown) => typeof value === 'string';
const isBoolean = (value: unknown) => typeof value === 'boolean';
// zod's number: finite only.
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
// zod's object: any non-array object (fields read as properties); its record: plain objects only.
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** The same result shape as a zod schema's `safeParse`, so the HTTP client takes either. */
export interface ResponseCheck<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** A `z.object` of these fields without zod: the known fields of an object whose fields pass their rules. */
function objectCheck<T>(rules: { [K in keyof T]-?: FieldRule }): ResponseCheck<T> {
  const entries = Object.entries(rules) as [string, FieldRule][];
  return {
    safeParse(value) {
      if (!isObject(value)) return { success: false };
      const data: Record<string, unknown> = {};
      for (const [key, rule] of entries) {
        const field = value[key];
        if (field === undefined && rule.optional) {
          if (key in value) data[key] = undefined;
          continue;
        }
        if (!rule.test(field)) return { success: false };
        data[key] = field;
      }
      return { success: true, data: data as T };
    },
  };
}

/** `SessionState` (auth.ts) without zod. */
export const SessionStateCheck = objectCheck<SessionStateFields>({
  loggedIn: required(isBoolean),
  endedBecause: optional((value) => (SESSION_ENDED_CODES as readonly unknown[]).includes(value)),
  username: optional(isString),
  displayName: optional(isString),
  idleSecondsLeft: optional(isNumber),
  absoluteSecondsLeft: optional(isNumber),
  mfaPending: optional((value) => (PENDING_LOGIN_STEPS as readonly unknown[]).includes(value)),
  recertificationOverdue: optional(isBoolean),
  administersLocation: optional(isBoolean),
});

/** `ErrorResponseSchema` (http.ts) without zod. */
export const ErrorResponseCheck = objectCheck<ErrorResponse>({
  errorMessage: required(isString),
  fieldErrors: optional(
    (value) =>
      isPlainObject(value) &&
      Object.values(value).every((messages) => Array.isArray(messages) && messages.every(isString)),
  ),
  requestId: optional(isString),
});
