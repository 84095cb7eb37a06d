import { randomUUID } from 'node:crypto';
import type { EventRow, IntervieweeRow, InterviewerRow, LobbyTokenRow } from '../../src/db/rows.js';
import { parseOffsetDateTime } from '../../src/graphql/scalars/date-time.js';
import { mintLobbyToken } from '../../src/interviews/lobby-tokens.js';
import type { SecretBox } from '../../src/security/secret-box.js';

/** Who the peer's events hang from: rows made at start-up, as the service's bench accounts. */
export interface EventOwner {
  employerId: string;
  appId: string;
  creator: { id: string; email: string; name: string };
}

/**
 * The rows the service writes for createVirtualInterviewEvent (src/interviews/event-writer.ts):
 * one interview_events row; interviewers, the creator first; one interviewees row; lobby_tokens
 * for the landing page, the interviewers and the interviewee (a token sealed, its digest kept).
 * Every column is set, with the row types the service's EventWriteStore inserts (src/db/rows.ts):
 * interview_events (id, employer_id, created_by_app_id, created_by_user_id, title, start_at,
 * start_offset_minutes, end_at, end_offset_minutes, timezone, language_code, country_code,
 * media_type, status, ats_name, employer_name, started_at, ended_at, archived_at, cancelled_at,
 * created_at, updated_at); interviewers (id, event_id, email, email_normalized, name, user_id,
 * position, created_at); interviewees (id, event_id, name, email, status, job_employer_job_id,
 * job_title, job_location, checked_in_at, created_at, updated_at); lobby_tokens (id, event_id,
 * interviewee_id, role, token_hash, token_encrypted, created_at). The tallies
 * interview_event_counts and interview_event_start_day_counts (employer_id, [start_day,] slot,
 * row_count) are kept by the migrations' triggers on interview_events, in the peer's database
 * as in the service's.
 */
export interface EventRows {
  event: EventRow;
  interviewers: InterviewerRow[];
  interviewee: IntervieweeRow;
  lobbyTokens: LobbyTokenRow[];
}

interface CreateInput {
  title: string;
  startTime: string;
  endTime: string;
  timezone: string;
  interviewers: Array<{ email: string }>;
  interviewee: { name: string; email: string };
  requestMetadata: { atsName: string; employerName?: string };
}

/** The rows for the body the bench sends to the service: `{ query, variables: { input } }`. */
export function eventRows(body: string, owner: EventOwner, box: SecretBox): EventRows {
  const input = (JSON.parse(body) as { variables: { input: CreateInput } }).variables.input;
  const start = parseOffsetDateTime(input.startTime);
  const end = parseOffsetDateTime(input.endTime);
  const now = Date.now();
  const eventId = randomUUID();
  const event: EventRow = {
    id: eventId,
    employer_id: owner.employerId,
    created_by_app_id: owner.appId,
    created_by_user_id: owner.creator.id,
    title: input.title,
    start_at: start.epochMs,
    start_offset_minutes: start.offsetMinutes,
    end_at: end.epochMs,
    end_offset_minutes: end.offsetMinutes,
    timezone: input.timezone,
    language_code: null,
    country_code: null,
    media_type: 'VIDEO',
    status: 'SCHEDULED',
    ats_name: input.requestMetadata.atsName,
    employer_name: input.requestMetadata.employerName ?? null,
    started_at: null,
    ended_at: null,
    archived_at: null,
    cancelled_at: null,
    created_at: now,
    updated_at: now,
  };
  const people = [
    { email: owner.creator.email, name: owner.creator.name, userId: owner.creator.id },
    ...input.interviewers.map(({ email }) => ({ email, name: null, userId: null })),
  ];
  const interviewers = people.map((person, position): InterviewerRow => ({
    id: randomUUID(),
    event_id: eventId,
    email: person.email,
    email_normalized: person.email.toLowerCase(),
    name: person.name,
    user_id: person.userId,
    position,
    created_at: now,
  }));
  const interviewee: IntervieweeRow = {
    id: randomUUID(),
    event_id: eventId,
    name: input.interviewee.name,
    email: input.interviewee.email,
    status: 'RSVPED',
    job_employer_job_id: null,
    job_title: null,
    job_location: null,
    checked_in_at: null,
    created_at: now,
    updated_at: now,
  };
  const lobbyTokens = [
    mintLobbyToken(box, 'landing', eventId, null, now),
    mintLobbyToken(box, 'interviewer', eventId, null, now),
    mintLobbyToken(box, 'interviewee', eventId, interviewee.id, now),
  ];
  return { event, interviewers, interviewee, lobbyTokens };
}

/** Column names and values of rows of one table, in one order. */
export function columnsOf<Row extends object>(
  rows: readonly Row[],
): { columns: string[]; values: unknown[][] } {
  const columns = Object.keys(rows[0]!);
  return {
    columns,
    values: rows.map((row) => columns.map((column) => (row as Record<string, unknown>)[column])),
  };
}
