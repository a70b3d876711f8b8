import type { ErrorCode } from '@portal/contracts/errors';

/** A failure the caller can act on: answered as `{ errorMessage: code, fieldErrors? }` with `status`. */
export class PortalError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly fieldErrors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(code);
    this.name = 'PortalError';
  }
}
