import type { ConsoleClient } from './console-client.js';

/** How far an interviewee has come through the lobby, in the order the lobby steps happen. */
export const INTERVIEWEE_PROGRESS = [
  'RSVPED',
  'CHECKED_IN',
  'INTERVIEWING',
  'INTERVIEWED',
] as const;

/** What clients were told about one event, and what they asked for without an answer. */
export interface EventEntry {
  /** Lower-cased emails of interviewers whose addition was acknowledged (the creator included). */
  acknowledgedInterviewers: Set<string>;
  /** Every interviewer ever asked for, acknowledged or not. */
  attemptedInterviewers: Set<string>;
  hasInterviewee: boolean;
  /** Index in INTERVIEWEE_PROGRESS of the last acknowledged lobby step, and of the last tried. */
  acknowledgedProgress: number;
  attemptedProgress: number;
}

/**
 * Every write a load acknowledged to a client, and every write it attempted, so that a check
 * after a restart can tell a lost write (acknowledged, missing) from an unacknowledged one that
 * happened to commit (attempted, present), which is allowed.
 */
export class WriteLedger {
  readonly accessTokens: string[] = [];
  /** Refresh tokens handed out by a refresh and never presented since. */
  readonly refreshTokens: string[] = [];
  /** Browsers that were told they are signed in (a 303 with a session cookie). */
  readonly sessions: ConsoleClient[] = [];
  readonly events = new Map<string, EventEntry>();

  eventCreated(id: string, interviewers: string[], hasInterviewee: boolean): void {
    const emails = interviewers.map((email) => email.toLowerCase());
    this.events.set(id, {
      acknowledgedInterviewers: new Set(emails),
      attemptedInterviewers: new Set(emails),
      hasInterviewee,
      acknowledgedProgress: 0,
      attemptedProgress: 0,
    });
  }

  /** Call before sending the addition, then `interviewersAdded` when it is acknowledged. */
  interviewersAttempted(id: string, emails: string[]): void {
    for (const email of emails) this.event(id).attemptedInterviewers.add(email.toLowerCase());
  }

  interviewersAdded(id: string, emails: string[]): void {
    for (const email of emails) this.event(id).acknowledgedInterviewers.add(email.toLowerCase());
  }

  progressAttempted(id: string, status: (typeof INTERVIEWEE_PROGRESS)[number]): void {
    this.event(id).attemptedProgress = INTERVIEWEE_PROGRESS.indexOf(status);
  }

  progressAcknowledged(id: string, status: (typeof INTERVIEWEE_PROGRESS)[number]): void {
    this.event(id).acknowledgedProgress = INTERVIEWEE_PROGRESS.indexOf(status);
  }

  /** How many writes of each kind were acknowledged. */
  acknowledgedCounts(): Record<string, number> {
    const entries = [...this.events.values()];
    return {
      accessTokens: this.accessTokens.length,
      refreshTokens: this.refreshTokens.length,
      sessions: this.sessions.length,
      events: entries.length,
      interviewers: entries.reduce((sum, entry) => sum + entry.acknowledgedInterviewers.size, 0),
      lobbySteps: entries.reduce((sum, entry) => sum + entry.acknowledgedProgress, 0),
    };
  }

  private event(id: string): EventEntry {
    const entry = this.events.get(id);
    if (!entry) throw new Error(`event ${id} is not in the ledger`);
    return entry;
  }
}
