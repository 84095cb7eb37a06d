/**
 * Why a bearer access token was refused (RFC 6750 `invalid_token`): a stable reason for the log
 * and metrics, and one sentence for the caller's `error_description`. Neither ever holds the
 * token; the claims a description quotes are cut to RFC 6750's character set and a short length.
 */
export type RefusalReason =
  | 'malformed'
  | 'id_token'
  | 'wrong_type'
  | 'wrong_algorithm'
  | 'unknown_key'
  | 'bad_signature'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'expired'
  | 'not_yet_valid'
  | 'unknown_token'
  | 'revoked';

export interface BearerRefusal {
  refused: RefusalReason;
  description: string;
}

export function refusal(reason: RefusalReason, description: string): BearerRefusal {
  return { refused: reason, description };
}

export function isRefusal(value: unknown): value is BearerRefusal {
  return typeof value === 'object' && value !== null && 'refused' in value;
}

const QUOTED_MAX = 100;

/**
 * A value taken from the token (a claim or header), as a description may quote it: only the
 * characters RFC 6750 allows in `error_description` (printable ASCII but `"` and `\`), at most
 * QUOTED_MAX of them, since the caller controls it and it lands in a header and the log.
 */
export function quoted(value: unknown): string {
  const text = Array.isArray(value)
    ? value.map(String).join(', ')
    : typeof value === 'string'
      ? value
      : (JSON.stringify(value) ?? 'nothing');
  const safe = text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
  return safe.length > QUOTED_MAX ? `${safe.slice(0, QUOTED_MAX)}...` : safe;
}

/** An epoch in seconds (a JWT's `exp`, `nbf`) or milliseconds (a row's), as ISO 8601. */
export function instant(epoch: unknown, unit: 'seconds' | 'ms' = 'seconds'): string {
  const ms = Number(epoch) * (unit === 'seconds' ? 1000 : 1);
  return Number.isFinite(ms) && Math.abs(ms) < 8.64e15
    ? new Date(ms).toISOString()
    : 'an invalid time';
}
