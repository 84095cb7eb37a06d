import type { ValidateFunction } from 'ajv';
import { validateClientId, validateClientSecret } from '../../../generated/validators.cjs';
import { validationMessage } from '../../http/openapi-validation.js';
import { OAuthError } from '../oauth-error.js';

/** How a client presented itself at the token, revocation or introspection endpoint. */
export type PresentedClient =
  | { method: 'client_secret_basic' | 'client_secret_post'; clientId: string; clientSecret: string }
  | { method: 'none'; clientId: string };

export const BASIC_CHALLENGE = 'Basic realm="oauth", charset="UTF-8"';

/**
 * Reads client credentials from an `Authorization: Basic` header or from the body, never both
 * (RFC 6749 §2.3). Basic credentials are form-encoded before base64 (§2.3.1), so both halves
 * are URL-decoded after splitting on the first colon.
 */
export function readClientCredentials(
  authorization: string | undefined,
  body: { client_id?: unknown; client_secret?: unknown },
): PresentedClient {
  const bodyId = typeof body.client_id === 'string' ? body.client_id : undefined;
  const bodySecret = typeof body.client_secret === 'string' ? body.client_secret : undefined;

  if (authorization !== undefined) {
    const basic = parseBasic(authorization);
    if (bodySecret !== undefined) {
      throw new OAuthError(
        'invalid_request',
        'use one client authentication method: the Authorization header or client_secret in the body, not both',
      );
    }
    if (bodyId !== undefined && bodyId !== basic.clientId) {
      throw new OAuthError(
        'invalid_request',
        'client_id in the body differs from the Authorization header',
      );
    }
    return { method: 'client_secret_basic', ...basic };
  }
  if (bodyId === undefined) {
    throw new OAuthError(
      'invalid_client',
      'client authentication is required: send client_id (and client_secret)',
    );
  }
  if (bodySecret !== undefined) {
    return { method: 'client_secret_post', clientId: bodyId, clientSecret: bodySecret };
  }
  return { method: 'none', clientId: bodyId };
}

function parseBasic(header: string): { clientId: string; clientSecret: string } {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0)
    throw basicError('the Authorization header is not valid Basic client credentials');
  let credentials: { clientId: string; clientSecret: string };
  try {
    credentials = {
      clientId: decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' ')),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' ')),
    };
  } catch {
    throw basicError('the Basic client credentials are not correctly form-encoded');
  }
  // The decoded halves obey the rules of the client_id and client_secret body parameters, so a
  // NUL or an overlong id is refused here rather than looked up.
  checkBasicPart(validateClientId, credentials.clientId, 'client_id');
  checkBasicPart(validateClientSecret, credentials.clientSecret, 'client_secret');
  return credentials;
}

function checkBasicPart(validate: ValidateFunction, value: string, parameter: string): void {
  if (validate(value)) return;
  const name = `${parameter} in the Authorization header`;
  throw new OAuthError('invalid_request', validationMessage(validate.errors, value, name));
}

function basicError(description: string): OAuthError {
  const error = new OAuthError('invalid_client', description);
  error.challenge = BASIC_CHALLENGE;
  return error;
}
