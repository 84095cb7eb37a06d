/**
 * Error codes of RFC 6749 §5.2 and RFC 6750 §3.1 that this server sends, and RFC 6749 §4.1.2.1's
 * `temporarily_unavailable` for a database too busy for now (answered 503).
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'temporarily_unavailable';

/** A protocol error with the HTTP status and description it is answered with. */
export class OAuthError extends Error {
  /** Value of a WWW-Authenticate header to send with the error, if any. */
  challenge: string | undefined;

  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status: 400 | 401 | 403 | 503 = error === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/** The exact answer the specification gives for an employer the caller may not act for. */
export function invalidEmployer(): OAuthError {
  return new OAuthError('invalid_request', 'Invalid request');
}
