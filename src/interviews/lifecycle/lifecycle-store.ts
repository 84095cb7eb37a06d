import type { Knex } from 'knex';
import { Store } from '../../db/store.js';
import type {
  EpochMs,
  EventRow,
  InterviewOutcomeRow,
  InterviewRecordRow,
  IntervieweeRow,
  InterviewerRow,
  LobbyTokenRow,
} from '../../db/rows.js';
import type { EventStatus, IntervieweeStatus, LobbyRole } from '../vocabulary.js';

/** A status change for a conditional UPDATE: rows in a `from` status move to its target. */
export type StatusMoves<Status extends string> = ReadonlyMap<Status, Status>;

/** A further condition of a time-driven move: the event's `column` is at or before `by`. */
export interface DueCondition {
  column: 'end_at' | 'ended_at';
  by: EpochMs;
}

/**
 * SQL of the interview lifecycle. Every status change is one conditional UPDATE
 * (`… SET status = … WHERE id = ? AND status IN (…)`) whose affected-row count says whether
 * this caller made the change; the rules deciding which moves are allowed come from the state
 * machines, never from here.
 */
export class LifecycleStore extends Store {
  /**
   * The event, locked until the transaction ends, so that every lifecycle change of one event
   * (lobby actions, the sweeper, cancellation) happens one after another.
   */
  async lockEvent(id: string): Promise<EventRow | undefined> {
    return this.forUpdate(this.db<EventRow>('interview_events').where({ id }).first());
  }

  findEvent(id: string): Promise<EventRow | undefined> {
    return this.db<EventRow>('interview_events').where({ id }).first();
  }

  intervieweeOf(eventId: string): Promise<IntervieweeRow | undefined> {
    return this.db<IntervieweeRow>('interviewees').where({ event_id: eventId }).first();
  }

  interviewersOf(eventId: string): Promise<InterviewerRow[]> {
    return this.db<InterviewerRow>('interviewers')
      .where({ event_id: eventId })
      .orderBy([{ column: 'position' }, { column: 'id' }]);
  }

  interviewer(eventId: string, id: string): Promise<InterviewerRow | undefined> {
    return this.db<InterviewerRow>('interviewers').where({ event_id: eventId, id }).first();
  }

  interviewerByEmail(
    eventId: string,
    emailNormalized: string,
  ): Promise<InterviewerRow | undefined> {
    return this.db<InterviewerRow>('interviewers')
      .where({ event_id: eventId, email_normalized: emailNormalized })
      .first();
  }

  /** True when the event has this interviewer (whose name is now `name`). */
  async nameInterviewer(eventId: string, id: string, name: string): Promise<boolean> {
    return (await this.db('interviewers').where({ event_id: eventId, id }).update({ name })) === 1;
  }

  record(eventId: string, id: string): Promise<InterviewRecordRow | undefined> {
    return this.db<InterviewRecordRow>('interview_records')
      .where({ event_id: eventId, id })
      .first();
  }

  /** Oldest first. */
  recordsOf(intervieweeId: string): Promise<InterviewRecordRow[]> {
    return this.db<InterviewRecordRow>('interview_records')
      .where({ interviewee_id: intervieweeId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  }

  async recordCountOf(intervieweeId: string): Promise<number> {
    const [row] = await this.db('interview_records')
      .where({ interviewee_id: intervieweeId })
      .count({ count: '*' });
    return Number(row?.count ?? 0);
  }

  outcomesOf(recordIds: readonly string[]): Promise<InterviewOutcomeRow[]> {
    if (!recordIds.length) return Promise.resolve([]);
    return this.db<InterviewOutcomeRow>('interview_outcomes')
      .whereIn('record_id', recordIds)
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  }

  lobbyTokensOf(eventId: string): Promise<LobbyTokenRow[]> {
    return this.db<LobbyTokenRow>('lobby_tokens').where({ event_id: eventId });
  }

  lobbyToken(role: LobbyRole, tokenHash: string): Promise<LobbyTokenRow | undefined> {
    return this.db<LobbyTokenRow>('lobby_tokens').where({ token_hash: tokenHash, role }).first();
  }

  /**
   * Moves one event if its status is one of `moves`' sources (and it is `due`); true when this
   * call made the change. The other columns of `patch` are written with it.
   */
  async moveEvent(
    id: string,
    moves: StatusMoves<EventStatus>,
    patch: Partial<EventRow>,
    due?: DueCondition,
  ): Promise<boolean> {
    const query = this.db('interview_events').where({ id });
    if (due) query.where(due.column, '<=', due.by);
    return (await this.applyMoves(query, moves, patch)) === 1;
  }

  async moveInterviewee(
    id: string,
    moves: StatusMoves<IntervieweeStatus>,
    patch: Partial<IntervieweeRow>,
  ): Promise<boolean> {
    return (await this.applyMoves(this.db('interviewees').where({ id }), moves, patch)) === 1;
  }

  /** Fails with a unique violation when the interviewee already has an open record. */
  async openRecord(row: InterviewRecordRow): Promise<void> {
    await this.db('interview_records').insert(row);
  }

  /** The interviewee's record that has not ended (at most one, by a partial unique index). */
  openRecordOf(intervieweeId: string): Promise<InterviewRecordRow | undefined> {
    return this.db<InterviewRecordRow>('interview_records')
      .where({ interviewee_id: intervieweeId })
      .whereNull('end_at')
      .first();
  }

  async closeOpenRecordOf(intervieweeId: string, endAt: EpochMs): Promise<number> {
    return this.db('interview_records')
      .where({ interviewee_id: intervieweeId })
      .whereNull('end_at')
      .update({ end_at: endAt });
  }

  /** The room times of a record (src/room decides when the interviewee and an interviewer meet). */
  async updateRecord(
    id: string,
    patch: Partial<Pick<InterviewRecordRow, 'start_at' | 'end_at' | 'room_emptied_at'>>,
  ): Promise<void> {
    await this.db('interview_records').where({ id }).update(patch);
  }

  /** Started interviews whose room has been empty since `emptiedBy` or earlier. */
  abandonedRecords(
    emptiedBy: EpochMs,
    limit: number,
  ): Promise<Array<Pick<InterviewRecordRow, 'id' | 'event_id'>>> {
    return this.db<InterviewRecordRow>('interview_records')
      .whereNull('end_at')
      .whereNotNull('start_at')
      .where('room_emptied_at', '<=', emptiedBy)
      .orderBy([{ column: 'room_emptied_at' }, { column: 'id' }])
      .limit(limit)
      .select('id', 'event_id');
  }

  /** Creates the interviewer's outcome of a record, or replaces its decision and note. */
  async saveOutcome(row: InterviewOutcomeRow): Promise<void> {
    await this.db('interview_outcomes')
      .insert(row)
      .onConflict(['record_id', 'interviewer_id'])
      .merge(['decision', 'note_text', 'updated_at']);
  }

  /** Events in one of `statuses` whose end time is at or before `dueBy`, earliest first. */
  eventsEndingBy(
    statuses: readonly EventStatus[],
    dueBy: EpochMs,
    limit: number,
  ): Promise<
    Array<Pick<EventRow, 'id' | 'end_at' | 'status' | 'employer_id' | 'created_by_app_id'>>
  > {
    return this.db<EventRow>('interview_events')
      .whereIn('status', statuses)
      .where('end_at', '<=', dueBy)
      .orderBy([{ column: 'end_at' }, { column: 'id' }])
      .limit(limit)
      .select('id', 'end_at', 'status', 'employer_id', 'created_by_app_id');
  }

  /** Events in one of `statuses` that ended at or before `endedBy`, earliest first. */
  eventsEndedBy(
    statuses: readonly EventStatus[],
    endedBy: EpochMs,
    limit: number,
  ): Promise<Array<{ id: string; ended_at: EpochMs }>> {
    return this.db<EventRow>('interview_events')
      .whereIn('status', statuses)
      .where('ended_at', '<=', endedBy)
      .orderBy([{ column: 'ended_at' }, { column: 'id' }])
      .limit(limit)
      .select('id', 'ended_at');
  }

  /**
   * `UPDATE … SET status = <target> WHERE … AND status IN (<sources>)`, with a CASE when the
   * sources move to different targets, so that one statement moves each row exactly once.
   */
  private async applyMoves<Status extends string>(
    query: Knex.QueryBuilder,
    moves: StatusMoves<Status>,
    patch: object,
  ): Promise<number> {
    if (!moves.size) return 0;
    const targets = new Set(moves.values());
    const status =
      targets.size === 1
        ? [...targets][0]
        : this.db.raw(
            `CASE status ${[...moves].map(() => 'WHEN ? THEN ?').join(' ')} END`,
            [...moves].flat(),
          );
    return query.whereIn('status', [...moves.keys()]).update({ ...patch, status });
  }
}
