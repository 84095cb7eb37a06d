import type { ServerResponse } from 'node:http';
import type { PlainNext, PlainRequest } from '../http/endpoint.js';
import { recognise, sendError } from '../http/errors.js';
import { sendJson } from '../http/json-answer.js';
import { BASIC_CHALLENGE } from './clients/client-credentials.js';
import { OAuthError } from './oauth-error.js';

/** Token responses and errors must never be stored by caches (RFC 6749 §5.1). */
export function noStore<Response extends ServerResponse>(res: Response): Response {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  return res;
}

export function sendOAuthError(res: ServerResponse, error: OAuthError): void {
  noStore(res);
  if (error.error === 'invalid_client') {
    res.setHeader('WWW-Authenticate', error.challenge ?? BASIC_CHALLENGE);
  } else if (error.challenge) {
    res.setHeader('WWW-Authenticate', error.challenge);
  }
  sendJson(res, error.status, error.toJSON());
}

/**
 * Error handler for the token-host endpoints: protocol errors in RFC 6749 form, a malformed or
 * undecodable body as `invalid_request`, a busy database as `temporarily_unavailable` (503 with
 * `Retry-After`), and size or media-type problems in the generic error form.
 */
export function oauthErrorHandler(
  error: unknown,
  req: PlainRequest,
  res: ServerResponse,
  next: PlainNext,
): void {
  if (error instanceof OAuthError) {
    sendOAuthError(res, error);
    return;
  }
  const known = recognise(error, req, res);
  if (known?.status === 400) {
    sendOAuthError(res, new OAuthError('invalid_request', known.description));
    return;
  }
  if (known?.status === 503) {
    sendOAuthError(res, new OAuthError('temporarily_unavailable', known.description, 503));
    return;
  }
  if (known) {
    noStore(res);
    sendError(req, res, known.status, known.error, known.description);
    return;
  }
  next(error);
}
