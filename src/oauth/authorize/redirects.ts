import type { OAuthError } from '../oauth-error.js';
import type { AuthorizationRequest } from './authorization-request.js';

/** Where the authorization endpoint and its forms live. */
export const AUTHORIZE_PATH = '/oauth/v2/authorize';
export const SIGN_IN_PATH = `${AUTHORIZE_PATH}/sign-in`;
export const SIGN_OUT_PATH = `${AUTHORIZE_PATH}/sign-out`;
export const CONSENT_PATH = `${AUTHORIZE_PATH}/consent`;
export const EMPLOYER_PATH = `${AUTHORIZE_PATH}/employer`;

/** The authorization endpoint again, with the client's query exactly as it was sent. */
export function authorizeUrl(query: string): string {
  return query ? `${AUTHORIZE_PATH}?${query}` : AUTHORIZE_PATH;
}

/** The success response (RFC 6749 §4.1.2, RFC 9207): code, state, iss and the chosen employer. */
export function codeResponseUri(
  request: Pick<AuthorizationRequest, 'redirectUri' | 'state'>,
  code: string,
  employerId: string | null,
  iss: string,
): string {
  return withParameters(request.redirectUri, [
    ['code', code],
    ['state', request.state],
    ['iss', iss],
    ['employer', employerId ?? undefined],
  ]);
}

/** The error response (RFC 6749 §4.1.2.1, RFC 9207), sent only to a registered redirect_uri. */
export function errorResponseUri(
  redirectUri: string,
  state: string | undefined,
  error: OAuthError,
  iss: string,
): string {
  return withParameters(redirectUri, [
    ['error', error.error],
    ['error_description', error.description],
    ['state', state],
    ['iss', iss],
  ]);
}

export type RedirectParameters = ReadonlyArray<readonly [name: string, value: string | undefined]>;

/**
 * Adds parameters to a registered redirect URI. The URI is kept character for character (any
 * query it already has included, as the registration stored it) and each value is
 * percent-encoded, so the client decodes exactly what we encoded. Undefined values are left out.
 */
export function withParameters(uri: string, parameters: RedirectParameters): string {
  const hashAt = uri.indexOf('#');
  const base = hashAt === -1 ? uri : uri.slice(0, hashAt);
  const added = parameters
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .join('&');
  if (!added) return base;
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${added}`;
}

/** encodeURIComponent that cannot throw: lone surrogates become U+FFFD first. */
function encode(value: string): string {
  return encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD'));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
