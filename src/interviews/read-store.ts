import { Store } from '../db/store.js';
import type {
  EventRow,
  InterviewOutcomeRow,
  InterviewRecordRow,
  IntervieweeRow,
  InterviewerRow,
  LobbyTokenRow,
} from '../db/rows.js';

/**
 * Batched reads behind the Interview API's nested fields: each method takes many parent ids and
 * answers with one query, so a page of events costs the same number of queries whatever its size.
 */
export class InterviewReadStore extends Store {
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

  outcomesByRecordIds(recordIds: readonly string[]): Promise<InterviewOutcomeRow[]> {
    return this.db('interview_outcomes as o')
      .join('interviewers as i', 'i.id', 'o.interviewer_id')
      .whereIn('o.record_id', recordIds)
      .orderBy([{ column: 'o.record_id' }, { column: 'i.position' }, { column: 'o.id' }])
      .select('o.*');
  }

  lobbyTokensByEventIds(eventIds: readonly string[]): Promise<LobbyTokenRow[]> {
    return this.db('lobby_tokens').whereIn('event_id', eventIds);
  }
}
