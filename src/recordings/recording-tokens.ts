import { randomToken, sha256Hex } from '../security/random.js';
import type { SecretBox } from '../security/secret-box.js';

/** Where a recording is streamed from, on PUBLIC_URL: `/recordings/<token>`. */
export const RECORDINGS_PATH = '/recordings';

/** Tokens are 43 URL-safe characters; anything far from that is not worth a database look-up. */
export const RECORDING_TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

export interface RecordingToken {
  token: string;
  hash: string;
  sealed: string;
}

/**
 * A new streaming capability token: 256 random bits, looked up by its SHA-256 digest, and kept
 * sealed so that the API can show the URL again on every read (as lobby tokens are).
 */
export function mintRecordingToken(box: SecretBox): RecordingToken {
  const token = randomToken(32);
  return { token, hash: sha256Hex(token), sealed: box.seal(token) };
}

export function recordingUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${RECORDINGS_PATH}/${token}`;
}
