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

export function linksFromTokens(
  rows: ReadonlyArray<Pick<LobbyTokenRow, 'role' | 'interviewee_id' | 'token_encrypted'>>,
  box: SecretBox,
  publicUrl: string,
): LobbyLinks {
  const links: LobbyLinks = {
    landingPageUrl: null,
    interviewerLobbyUrl: null,
    intervieweeLobbyUrls: new Map(),
  };
  for (const row of rows) {
    const url = lobbyUrl(publicUrl, row.role, box.open(row.token_encrypted));
    if (row.role === 'landing') links.landingPageUrl = url;
    else if (row.role === 'interviewer') links.interviewerLobbyUrl = url;
    else if (row.interviewee_id) links.intervieweeLobbyUrls.set(row.interviewee_id, url);
  }
  return links;
}
