import type {
  DecisionValue,
  EventStatus,
  IntervieweeStatus,
  LobbyRole,
  MediaType,
} from '../vocabulary.js';
import { DomainError } from '../../errors.js';

/**
 * The contract between the interview pages (src/lobby) and the lifecycle service: what a page
 * shows and the transitions it can ask for. Every status in a view is already settled by the
 * clock (an event whose end time has passed reads as ENDED, even before the sweeper runs).
 */

/** What a capability token opens; null from `access` means the token is unknown (404). */
export interface LobbyAccess {
  role: LobbyRole;
  eventId: string;
  /** Set for an interviewee lobby token: whose lobby it is. */
  intervieweeId: string | null;
}

export interface LobbyView {
  /** The service clock's instant the statuses were settled at; pages count down from it. */
  asOf: number;
  event: {
    id: string;
    title: string;
    startAt: number;
    endAt: number;
    /** UTC offsets (minutes) the scheduler used; pages may show times in them. */
    startOffsetMinutes: number;
    endOffsetMinutes: number;
    timezone: string;
    status: EventStatus;
    /** When someone first entered the room (the event became STARTED); null before. */
    startedAt: number | null;
    mediaType: MediaType;
    /** requestMetadata.employerName, when the scheduler gave one. */
    employerName: string | null;
    createdAt: number;
    /** Moves with every change of the event (reschedule, cancel, status). */
    updatedAt: number;
  };
  interviewers: Array<{ id: string; email: string; name: string | null }>;
  interviewee: {
    id: string;
    name: string;
    status: IntervieweeStatus;
    /** The job they interview for: an employer job id, or a title and/or location. */
    job: IntervieweeJob | null;
  } | null;
  /** The records of the interviewee, oldest first; at most one has no end time. */
  records: Array<{
    id: string;
    startAt: number | null;
    endAt: number | null;
    outcomes: Array<{ interviewerId: string; decision: DecisionValue | null; note: string | null }>;
  }>;
  /** URLs of the pages of this event, for the pages' links and the calendar file. */
  links: {
    landingPageUrl: string | null;
    interviewerLobbyUrl: string | null;
    intervieweeLobbyUrl: string | null;
  };
}

export interface IntervieweeJob {
  employerJobId: string | null;
  title: string | null;
  location: string | null;
}

/** A transition the state machines refuse; `message` is written for the person on the page. */
export class TransitionRefused extends DomainError {}

export interface InterviewLifecycle {
  /** Resolves a capability token presented on a page of `role`. */
  access(role: LobbyRole, token: string): Promise<LobbyAccess | null>;
  /** The event as a page shows it, settled by the clock first. */
  view(eventId: string): Promise<LobbyView>;
  /** Interviewee joins the lobby: RSVPED → CHECKED_IN; the event becomes STARTED on a first join. */
  checkIn(eventId: string, intervieweeId: string): Promise<void>;
  /** The invited interviewer with this email (letter case ignored), or null. */
  findInterviewer(
    eventId: string,
    email: string,
  ): Promise<{ id: string; email: string; name: string | null } | null>;
  /**
   * Sets the display name the interviewer gave in the lobby (trimmed, one line, at most
   * INTERVIEWER_NAME_MAX characters). It replaces any name stored before, the creator's account
   * name included, and is what the interviewee, the room and the Interview API show.
   */
  nameInterviewer(eventId: string, interviewerId: string, name: string): Promise<void>;
  /**
   * CHECKED_IN or REQUEUED → INTERVIEWING; a record opens, and starts once the interviewee and an
   * interviewer are both in the room (src/room). At most one open record, even under races.
   */
  admit(eventId: string, interviewerId: string): Promise<void>;
  /** INTERVIEWING → REQUEUED; the open record ends now. */
  sendBack(eventId: string, interviewerId: string): Promise<void>;
  /** INTERVIEWING → INTERVIEWED; the open record ends now. */
  endInterview(eventId: string, interviewerId: string): Promise<void>;
  /** One outcome per interviewer per record, created or replaced; refused once the event is ARCHIVED. */
  recordDecision(
    eventId: string,
    interviewerId: string,
    recordId: string,
    decision: DecisionValue,
    note: string | null,
  ): Promise<void>;
  /** The event → ENDED; an interviewee never admitted → NOT_INTERVIEWED, one in the room → INTERVIEWED. */
  endEvent(eventId: string, interviewerId: string): Promise<void>;
}
