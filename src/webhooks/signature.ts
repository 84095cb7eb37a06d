import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (DESIGN §8): `webhook-signature` is `v1,<base64 HMAC-SHA256>` of
 * `{id}.{timestamp}.{body}` under the secret's bytes; after a rotation each live secret adds
 * its own signature, separated by spaces.
 */
const PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new endpoint secret: `whsec_` and the base64 of 32 random bytes. */
export function newEndpointSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function isEndpointSecret(value: string): boolean {
  if (!value.startsWith(PREFIX)) return false;
  return Buffer.from(value.slice(PREFIX.length), 'base64').length === SECRET_BYTES;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one attempt; `secrets` newest first, at least one. */
export function signDelivery(
  messageId: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): SignedHeaders {
  if (secrets.length === 0) throw new Error('a delivery needs at least one secret to sign with');
  const signed = `${messageId}.${timestampSeconds}.${body}`;
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => `v1,${hmac(secret, signed)}`).join(' '),
  };
}

/** True when one of the `v1` signatures in `header` is `secret`'s (tests and the CLI). */
export function signatureMatches(
  header: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
  secret: string,
): boolean {
  const expected = Buffer.from(hmac(secret, `${messageId}.${timestampSeconds}.${body}`));
  return header.split(' ').some((part) => {
    const [version, value] = part.split(',', 2);
    if (version !== 'v1' || value === undefined) return false;
    const given = Buffer.from(value);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function hmac(secret: string, content: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return createHmac('sha256', key).update(content).digest('base64');
}
