import type { EventRow, IntervieweeRow, InterviewerRow, LobbyTokenRow } from '../db/rows.js';
import { Store } from '../db/store.js';

/** SQL for the Interview API's writes. Use inside `inTransaction` so each mutation is atomic. */
export class EventWriteStore extends Store {
  async insertEvent(row: EventRow): Promise<void> {
    await this.db('interview_events').insert(row);
  }

  async insertInterviewers(rows: InterviewerRow[]): Promise<void> {
    if (rows.length) await this.db('interviewers').insert(rows);
  }

  async insertInterviewee(row: IntervieweeRow): Promise<void> {
    await this.db('interviewees').insert(row);
  }

  async insertLobbyTokens(rows: LobbyTokenRow[]): Promise<void> {
    if (rows.length) await this.db('lobby_tokens').insert(rows);
  }

  /** The employer's event, locked against concurrent writers until the transaction ends. */
  async findEventForUpdate(employerId: string, id: string): Promise<EventRow | undefined> {
    return this.forUpdate(
      this.db('interview_events').where({ id, employer_id: employerId }).first(),
    );
  }

  async findEvent(id: string): Promise<EventRow> {
    return this.db('interview_events').where({ id }).first();
  }

  /** Invited addresses (lower-cased) and the highest position used so far. */
  async invitations(eventId: string): Promise<{ emails: Set<string>; lastPosition: number }> {
    const rows: Array<Pick<InterviewerRow, 'email_normalized' | 'position'>> = await this.db(
      'interviewers',
    )
      .where({ event_id: eventId })
      .select('email_normalized', 'position');
    return {
      emails: new Set(rows.map((row) => row.email_normalized)),
      lastPosition: Math.max(-1, ...rows.map((row) => row.position)),
    };
  }

  async hasInterviewee(eventId: string): Promise<boolean> {
    return Boolean(await this.db('interviewees').where({ event_id: eventId }).first('id'));
  }

  async updateEvent(id: string, patch: Partial<EventRow>): Promise<void> {
    await this.db('interview_events').where({ id }).update(patch);
  }

  async cancelInterviewees(eventId: string, now: number): Promise<void> {
    await this.db('interviewees')
      .where({ event_id: eventId })
      .update({ status: 'CANCELLED', updated_at: now });
  }

  async closeOpenRecords(eventId: string, now: number): Promise<void> {
    await this.db('interview_records')
      .where({ event_id: eventId })
      .whereNull('end_at')
      .update({ end_at: now });
  }
}
