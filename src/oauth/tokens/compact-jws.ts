import { sign, verify, type KeyObject } from 'node:crypto';
import type { SigningAlg } from '../signing-keys/algorithms.js';

/**
 * JWS compact serialization (RFC 7515) for our two algorithms, on `node:crypto` KeyObjects:
 * signing and verifying run synchronously on the calling thread, which measures faster than a
 * WebCrypto call's hop to the thread pool and back.
 */

/** ES256 signatures are the raw r‖s pair (RFC 7518 §3.4), not DER. */
function signOptions(alg: SigningAlg, key: KeyObject) {
  return alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' as const } : key;
}

/** `header.payload.signature`, each part base64url-encoded JSON (the signature raw bytes). */
export function signCompact(
  alg: SigningAlg,
  key: KeyObject,
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
): string {
  const input = `${encodeJson(header)}.${encodeJson(payload)}`;
  const signature = sign('sha256', Buffer.from(input), signOptions(alg, key));
  return `${input}.${signature.toString('base64url')}`;
}

/** A JWS split and decoded, its signature not yet checked. */
export interface ParsedJws {
  header: Record<string, unknown>;
  /** The payload's bytes, decoded only once the signature verifies. */
  payloadPart: string;
  signingInput: string;
  signature: Buffer;
}

/**
 * The parts of a compact JWS: exactly three, each canonical base64url (no padding, no stray
 * bits), the header a JSON object. Anything else is undefined.
 */
export function parseCompact(token: string): ParsedJws | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJsonObject(headerPart);
  const signature = decodeBase64url(signaturePart);
  if (!header || !signature || !isBase64url(payloadPart)) return undefined;
  return { header, payloadPart, signingInput: `${headerPart}.${payloadPart}`, signature };
}

/** Whether `jws`'s signature is `key`'s; a signature of the wrong shape simply does not verify. */
export function verifiesWith(alg: SigningAlg, key: KeyObject, jws: ParsedJws): boolean {
  try {
    return verify('sha256', Buffer.from(jws.signingInput), signOptions(alg, key), jws.signature);
  } catch {
    return false;
  }
}

/** The JSON object a base64url part encodes, or undefined (not canonical, not UTF-8, no object). */
export function decodeJsonObject(part: string): Record<string, unknown> | undefined {
  const bytes = decodeBase64url(part);
  if (!bytes) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const BASE64URL = /^[A-Za-z0-9_-]*$/;

function isBase64url(part: string): boolean {
  return decodeBase64url(part) !== undefined;
}

/** Node decodes leniently (padding, stray bits, other alphabets): only the canonical form passes. */
function decodeBase64url(part: string): Buffer | undefined {
  if (part === '' || !BASE64URL.test(part)) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}

function encodeJson(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
