/** Stable codes for every expected failure. The HTTP adapter owns the one table from code to status. */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'limit_reached'
  | 'payload_too_large'
  | 'rate_limited'
  | 'share_password_required'
  | 'share_password_invalid'
  | 'unavailable'
  /** Resumable uploads (tus): a request without the protocol version the server speaks. */
  | 'precondition_failed'
  | 'unsupported_media_type'
  /** The bytes of an append do not match the checksum the client sent with them. */
  | 'checksum_mismatch';

/** An expected failure: it carries a stable code, a message for people and optional detail fields, never a status. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new DomainError('bad_request', message, details);
export const unauthorized = (message = 'Authentication required') => new DomainError('unauthorized', message);
export const forbidden = (message = 'Not allowed') => new DomainError('forbidden', message);
export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new DomainError('conflict', message, details);
/** A share past its expiry or its maxima: it exists, and its owner can bring it back, but nobody reads through it. */
export const gone = (message = 'This share has expired or reached its limit') => new DomainError('gone', message);

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
