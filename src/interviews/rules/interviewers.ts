import { ValidationError } from '../../errors.js';

/** Spec §8: at most 49 invited interviewers, plus the creator who is added automatically. */
export const MAX_INVITED_INTERVIEWERS = 49;

/** The longest display name an interviewer may give in the lobby: it captions a video tile. */
export const INTERVIEWER_NAME_MAX = 100;

export interface InvitedInterviewer {
  email: string;
  emailNormalized: string;
}

/**
 * The invitations that are new for an event: duplicates collapse (letter case ignored), as do
 * addresses already invited. Refuses the list when the event would end up with more than 49
 * interviewers besides its creator.
 */
export function newInvitations(
  requested: ReadonlyArray<{ email: string }>,
  alreadyInvited: ReadonlySet<string>,
  invitedBesidesCreator: number,
  path: string,
): InvitedInterviewer[] {
  const fresh = new Map<string, InvitedInterviewer>();
  for (const { email } of requested) {
    const emailNormalized = email.toLowerCase();
    if (!alreadyInvited.has(emailNormalized) && !fresh.has(emailNormalized)) {
      fresh.set(emailNormalized, { email, emailNormalized });
    }
  }
  const total = invitedBesidesCreator + fresh.size;
  if (total > MAX_INVITED_INTERVIEWERS) {
    throw new ValidationError(
      `${path}: an event can have at most ${MAX_INVITED_INTERVIEWERS} interviewers besides its creator (this would make ${total})`,
      'interviewers',
    );
  }
  return [...fresh.values()];
}
