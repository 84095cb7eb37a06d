import type {
  EventRow,
  InterviewOutcomeRow,
  InterviewRecordRow,
  IntervieweeRow,
  InterviewerRow,
} from '../../db/rows.js';
import type { LobbyLinks } from '../lobby-links.js';
import type { IntervieweeJob, LobbyView } from './interview-lifecycle.js';
import { settleInterviewee, settleRecordEnd, type SettledEvent } from './settle.js';

/** Everything stored about one event that its pages show, read in one snapshot. */
export interface StoredEvent {
  event: EventRow;
  interviewers: InterviewerRow[];
  interviewee: IntervieweeRow | null;
  /** The interviewee's records, oldest first. */
  records: InterviewRecordRow[];
  outcomes: InterviewOutcomeRow[];
  links: LobbyLinks;
}

/**
 * What a page shows of a stored event, with statuses (and an open record) settled by the clock
 * at `asOf`.
 */
export function lobbyView(stored: StoredEvent, settled: SettledEvent, asOf: number): LobbyView {
  const { event, interviewee } = stored;
  return {
    asOf,
    event: {
      id: event.id,
      title: event.title,
      startAt: event.start_at,
      endAt: event.end_at,
      startOffsetMinutes: event.start_offset_minutes,
      endOffsetMinutes: event.end_offset_minutes,
      timezone: event.timezone,
      status: settled.status,
      startedAt: event.started_at,
      mediaType: event.media_type,
      employerName: event.employer_name,
      createdAt: event.created_at,
      updatedAt: event.updated_at,
    },
    interviewers: stored.interviewers.map(({ id, email, name }) => ({ id, email, name })),
    interviewee: interviewee && {
      id: interviewee.id,
      name: interviewee.name,
      status: settleInterviewee(interviewee.status, settled.status),
      job: jobOf(interviewee),
    },
    records: stored.records.map((record) => ({
      id: record.id,
      startAt: record.start_at,
      endAt: settleRecordEnd(record.end_at, settled),
      outcomes: stored.outcomes
        .filter((outcome) => outcome.record_id === record.id)
        .map((outcome) => ({
          interviewerId: outcome.interviewer_id,
          decision: outcome.decision,
          note: outcome.note_text,
        })),
    })),
    links: {
      landingPageUrl: stored.links.landingPageUrl,
      interviewerLobbyUrl: stored.links.interviewerLobbyUrl,
      intervieweeLobbyUrl: interviewee
        ? (stored.links.intervieweeLobbyUrls.get(interviewee.id) ?? null)
        : null,
    },
  };
}

function jobOf(interviewee: IntervieweeRow): IntervieweeJob | null {
  const job = {
    employerJobId: interviewee.job_employer_job_id,
    title: interviewee.job_title,
    location: interviewee.job_location,
  };
  return Object.values(job).some((value) => value !== null) ? job : null;
}
