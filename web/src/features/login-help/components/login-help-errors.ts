import { ApiError } from '../../../lib/api-error';

/** Codes after which a reset link or reactivation code cannot be used again: the flow starts over. */
const DEAD_END_CODES = new Set(['Reset_Token_Invalid', 'Security_Answer_Attempts_Exceeded']);

export function isDeadEnd(error: unknown): error is ApiError {
  return error instanceof ApiError && DEAD_END_CODES.has(error.code);
}
