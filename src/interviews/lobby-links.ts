import type { LobbyTokenRow } from '../db/rows.js';
import type { SecretBox } from '../security/secret-box.js';

/** The capability URLs of one event, rebuilt from its stored (encrypted) tokens. */
export interface LobbyLinks {
  landingPageUrl: string | null;
  interviewerLobbyUrl: string | null;
  intervieweeLobbyUrls: Map<string, string>;
}

/** URL paths of the pages that the lobby tokens open. */
export const LOBBY_PATHS = {
  landing: '/interviews',
  interviewer: '/lobby/interviewer',
  interviewee: '/lobby/interviewee',
} as const;

export function lobbyUrl(publicUrl: string, role: LobbyTokenRow['role'], token: string): string {
  return `${publicUrl}${LOBBY_PATHS[role]}/${token}`;
}

/**
 * The links of one event's tokens. Each URL is decrypted when first read, not before: a request
 * that shows one of an event's links does not pay for opening the others.
 */
export function linksFromTokens(
  rows: ReadonlyArray<Pick<LobbyTokenRow, 'role' | 'interviewee_id' | 'token_encrypted'>>,
  box: SecretBox,
  publicUrl: string,
): LobbyLinks {
  const urlOf = (row: (typeof rows)[number]) =>
    lobbyUrl(publicUrl, row.role, box.open(row.token_encrypted));
  // Where an event holds two tokens of a role, the later row is the one shown.
  const urlOfRole = (role: LobbyTokenRow['role']) => {
    const row = rows.findLast((candidate) => candidate.role === role);
    return row ? urlOf(row) : null;
  };
  let landing: string | null | undefined;
  let interviewer: string | null | undefined;
  let interviewees: Map<string, string> | undefined;
  return {
    get landingPageUrl() {
      return landing === undefined ? (landing = urlOfRole('landing')) : landing;
    },
    get interviewerLobbyUrl() {
      return interviewer === undefined ? (interviewer = urlOfRole('interviewer')) : interviewer;
    },
    get intervieweeLobbyUrls() {
      if (!interviewees) {
        interviewees = new Map();
        for (const row of rows) {
          if (row.role === 'interviewee' && row.interviewee_id) {
            interviewees.set(row.interviewee_id, urlOf(row));
          }
        }
      }
      return interviewees;
    },
  };
}
