import * as z from 'zod/mini';
import { dataEnvelope } from './http';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordLength } from './password-rules';

/** The password policy's rules (password-rules.ts, without zod) and its schemas. */
export * from './password-rules';

/** The form-level schema (length only; the blocklist and personal words need `checkPassword` with context). */
export const PasswordSchema = z.string().check(
  z.refine((p) => passwordLength(p) >= PASSWORD_MIN_LENGTH, { message: 'Password_Too_Short' }),
  z.refine((p) => passwordLength(p) <= PASSWORD_MAX_LENGTH, { message: 'Password_Too_Long' }),
);

/** `POST /api/password/generate/get`: a generated password that passes the policy, in the usual `data` envelope. */
export const GeneratedPassword = z.object({ password: z.string() });
export type GeneratedPassword = z.infer<typeof GeneratedPassword>;
export const GeneratedPasswordResponse = dataEnvelope(GeneratedPassword);
export type GeneratedPasswordResponse = z.infer<typeof GeneratedPasswordResponse>;
