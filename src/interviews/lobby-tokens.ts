import { randomUUID } from 'node:crypto';
import type { LobbyTokenRow } from '../db/rows.js';
import type { LobbyRole } from './vocabulary.js';
import { randomToken, sha256Hex } from '../security/random.js';
import type { SecretBox } from '../security/secret-box.js';

/**
 * A new capability token for a lobby or landing page: 256 random bits, looked up by its
 * SHA-256 digest, and kept encrypted so the API can show the URL again on every read.
 */
export function mintLobbyToken(
  box: SecretBox,
  role: LobbyRole,
  eventId: string,
  intervieweeId: string | null,
  now: number,
): LobbyTokenRow {
  const token = randomToken(32);
  return {
    id: randomUUID(),
    event_id: eventId,
    interviewee_id: intervieweeId,
    role,
    token_hash: sha256Hex(token),
    token_encrypted: box.seal(token),
    created_at: now,
  };
}
