import type { EventRow, IntervieweeRow, InterviewerRow, LobbyTokenRow } from '../db/rows.js';

/** Which of an event's lists a read brings along with the event, in the same statement. */
export interface EventParts {
  interviewers: boolean;
  interviewees: boolean;
  /** What the lobby URLs are made of. */
  lobbyTokens: boolean;
}

export const NO_PARTS: EventParts = {
  interviewers: false,
  interviewees: false,
  lobbyTokens: false,
};

/** What a lobby URL needs of its stored token. */
export type LobbyTokenLink = Pick<LobbyTokenRow, 'role' | 'interviewee_id' | 'token_encrypted'>;

/** An event and the lists its read brought (those its parts named; the others undefined). */
export interface EventGraph {
  event: EventRow;
  /** In position order, as the interviewers' loader answers them. */
  interviewers?: InterviewerRow[];
  /** In id order, as the interviewees' loader answers them. */
  interviewees?: IntervieweeRow[];
  lobbyTokens?: LobbyTokenLink[];
}
