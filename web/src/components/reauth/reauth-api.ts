// Placeholder until the contracts land: replaced by the contracts' schema and route.
import { z } from 'zod/mini';
import { apiRequest } from '../../lib/api-client';

export const REAUTHENTICATION_REQUIRED_CODE = 'Reauthentication_Required';
export const ReauthRequest = z.object({ password: z.string().check(z.minLength(1), z.maxLength(1024)) });
export type ReauthRequest = z.infer<typeof ReauthRequest>;

/** `POST /api/auth/reauthenticate`: the password again refreshes the login's time. */
export const reauthenticate = (body: ReauthRequest) =>
  apiRequest('/api/auth/reauthenticate', { method: 'POST', body });
