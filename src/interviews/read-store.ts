import { Store } from '../db/store.js';
import type { EventGraph, EventParts } from './event-graph.js';
import { eventGraphOf, eventsByIdsStatement } from './event-graph-store.js';
import type {
  EventRow,
  InterviewOutcomeRow,
  InterviewRecordRow,
  IntervieweeRow,
  InterviewerRow,
  LobbyTokenRow,
} from '../db/rows.js';

export interface OutcomeWithInterviewer {
  outcome: InterviewOutcomeRow;
  interviewer: InterviewerRow;
}

const INTERVIEWER_COLUMNS: ReadonlyArray<keyof InterviewerRow> = [
  'id',
  'event_id',
  'email',
  'email_normalized',
  'name',
  'user_id',
  'position',
  'created_at',
];
/** Prefix of the joined interviewer's columns; no outcome column starts with it. */
const JOINED = 'joined_interviewer__';

/**
 * Batched reads behind the Interview API's nested fields: each method takes many parent ids and
 * answers with one query, so a page of events costs the same number of queries whatever its size.
 */
export class InterviewReadStore extends Store {
  /** One employer's events by id, each with the lists `parts` names, in one statement. */
  async eventGraphsByIds(
    employerId: string,
    ids: readonly string[],
    parts: EventParts,
  ): Promise<EventGraph[]> {
    const { dialect } = this;
    const { sql, bindings } = eventsByIdsStatement(dialect, employerId, ids, parts);
    const rows = await dialect.select(this.db, sql, bindings);
    return rows.map((row) => eventGraphOf(dialect, row));
  }

  eventsByIds(ids: readonly string[]): Promise<EventRow[]> {
    return this.db('interview_events').whereIn('id', ids);
  }

  interviewersByEventIds(eventIds: readonly string[]): Promise<InterviewerRow[]> {
    return this.db('interviewers')
      .whereIn('event_id', eventIds)
      .orderBy([{ column: 'event_id' }, { column: 'position' }, { column: 'id' }]);
  }

  interviewersByIds(ids: readonly string[]): Promise<InterviewerRow[]> {
    return this.db('interviewers').whereIn('id', ids);
  }

  intervieweesByEventIds(eventIds: readonly string[]): Promise<IntervieweeRow[]> {
    return this.db('interviewees').whereIn('event_id', eventIds).orderBy('id');
  }

  intervieweesByIds(ids: readonly string[]): Promise<IntervieweeRow[]> {
    return this.db('interviewees').whereIn('id', ids);
  }

  recordsByIntervieweeIds(intervieweeIds: readonly string[]): Promise<InterviewRecordRow[]> {
    return this.db('interview_records')
      .whereIn('interviewee_id', intervieweeIds)
      .orderBy([{ column: 'interviewee_id' }, { column: 'created_at' }, { column: 'id' }]);
  }

  /**
   * Outcomes with the interviewer each belongs to, read in the same statement (the join orders
   * them by interviewer position anyway), so that an outcome's interviewer never costs a read of
   * its own, whichever of the page's nested reads finishes first.
   */
  async outcomesByRecordIds(recordIds: readonly string[]): Promise<OutcomeWithInterviewer[]> {
    const rows: Array<Record<string, unknown>> = await this.db('interview_outcomes as o')
      .join('interviewers as i', 'i.id', 'o.interviewer_id')
      .whereIn('o.record_id', recordIds)
      .orderBy([{ column: 'o.record_id' }, { column: 'i.position' }, { column: 'o.id' }])
      .select('o.*', ...INTERVIEWER_COLUMNS.map((column) => `i.${column} as ${JOINED}${column}`));
    return rows.map((row) => {
      const outcome: Record<string, unknown> = {};
      const interviewer: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(row)) {
        if (key.startsWith(JOINED)) interviewer[key.slice(JOINED.length)] = value;
        else outcome[key] = value;
      }
      return {
        outcome: outcome as unknown as InterviewOutcomeRow,
        interviewer: interviewer as unknown as InterviewerRow,
      };
    });
  }

  lobbyTokensByEventIds(eventIds: readonly string[]): Promise<LobbyTokenRow[]> {
    return this.db('lobby_tokens').whereIn('event_id', eventIds);
  }
}
