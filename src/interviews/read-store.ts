import { Store } from '../db/store.js';
import type { EventGraph, EventParts } from './event-graph.js';
import { eventGraphOf, eventsByIdsStatement } from './event-graph-store.js';
import { interviewerOutcomeId, type InterviewerOutcome } from './interviewer-outcome.js';
import type {
  EventRow,
  InterviewRecordRow,
  IntervieweeRow,
  InterviewerRow,
  LobbyTokenRow,
} from '../db/rows.js';

export interface OutcomeWithInterviewer {
  outcome: InterviewerOutcome;
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
   * The outcomes of records: one per interviewer of the record's event, in interviewer order,
   * each with the decision and note that interviewer saved, or nulls. The interviewer is read in
   * the same statement, so an outcome's interviewer never costs a read of its own.
   */
  async outcomesByRecordIds(recordIds: readonly string[]): Promise<OutcomeWithInterviewer[]> {
    const rows: Array<Record<string, unknown>> = await this.db('interview_records as r')
      .join('interviewers as i', 'i.event_id', 'r.event_id')
      .leftJoin('interview_outcomes as o', (on) =>
        on.on('o.record_id', '=', 'r.id').andOn('o.interviewer_id', '=', 'i.id'),
      )
      .whereIn('r.id', recordIds)
      .orderBy([{ column: 'r.id' }, { column: 'i.position' }, { column: 'i.id' }])
      .select(
        'r.id as outcome_record_id',
        'o.decision as outcome_decision',
        'o.note_text as outcome_note_text',
        ...INTERVIEWER_COLUMNS.map((column) => `i.${column}`),
      );
    return rows.map((row) => {
      const interviewer = Object.fromEntries(
        INTERVIEWER_COLUMNS.map((column) => [column, row[column]]),
      ) as unknown as InterviewerRow;
      const recordId = row.outcome_record_id as string;
      return {
        interviewer,
        outcome: {
          id: interviewerOutcomeId(recordId, interviewer.id),
          record_id: recordId,
          interviewer_id: interviewer.id,
          decision: (row.outcome_decision ?? null) as InterviewerOutcome['decision'],
          note_text: (row.outcome_note_text ?? null) as string | null,
        },
      };
    });
  }

  lobbyTokensByEventIds(eventIds: readonly string[]): Promise<LobbyTokenRow[]> {
    return this.db('lobby_tokens').whereIn('event_id', eventIds);
  }
}
