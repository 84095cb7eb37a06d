import { ValidationError } from '../errors.js';
import { singleLineTextProblem } from '../security/text-safety.js';

/** Spec §5.6: an app may register at most five redirect URLs. */
export const MAX_REDIRECT_URIS = 5;
const MAX_URI_LENGTH = 2048;
/** Hosts on which plain http is allowed: the traffic never leaves the machine. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Checks one redirect URI for registration: absolute, http(s), no fragment (RFC 6749 §3.1.2),
 * and plain http only on loopback hosts so that codes never cross a network in the clear.
 * The URI is stored exactly as given because authorization requests must match it byte for byte.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return `is longer than ${MAX_URI_LENGTH} characters`;
  if (uri.trim() !== uri || uri === '') return 'must not be empty or surrounded by spaces';
  // The URL parser would drop tabs and line breaks and escape other controls; the URI is stored
  // and matched as given, so it must not hold any.
  const problem = singleLineTextProblem(uri);
  if (problem) return problem;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'must use https (or http on localhost)';
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    return 'must use https unless the host is localhost, 127.0.0.1 or [::1]';
  }
  if (uri.includes('#')) return 'must not contain a fragment (#)';
  if (url.username || url.password) return 'must not contain credentials';
  return undefined;
}

/** Validates a whole registration list: each URI, no duplicates, at most five. */
export function validateRedirectUris(uris: string[]): string[] {
  if (uris.length > MAX_REDIRECT_URIS) {
    throw new ValidationError(
      `an app can register at most ${MAX_REDIRECT_URIS} redirect URIs (got ${uris.length})`,
      'redirect_uris',
    );
  }
  const seen = new Set<string>();
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem)
      throw new ValidationError(`redirect URI ${JSON.stringify(uri)} ${problem}`, 'redirect_uris');
    if (seen.has(uri)) {
      throw new ValidationError(
        `redirect URI ${JSON.stringify(uri)} is listed twice`,
        'redirect_uris',
      );
    }
    seen.add(uri);
  }
  return uris;
}
