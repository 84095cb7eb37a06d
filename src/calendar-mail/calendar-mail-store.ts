import type {
  CalendarInvitationRow,
  CalendarMailAppSettingsRow,
  CalendarMailRow,
  EpochMs,
  EventRow,
  IntervieweeRow,
  InterviewerRow,
  LobbyTokenRow,
} from '../db/rows.js';
import { Store } from '../db/store.js';
import type { EventStatus } from '../interviews/vocabulary.js';
import type { Attendee, CalendarSnapshot } from './mail-plan.js';

/** The event as the planner needs it, read in the change's transaction. */
export interface EventForCalendar {
  snapshot: CalendarSnapshot;
  status: EventStatus;
}

/** Where a due mail stands when a sender is about to send it. */
export interface SendCheck {
  /** The event's stored status and start; null when the event is gone. */
  event: Pick<EventRow, 'status' | 'start_at'> | null;
  /** A later invitation, update or cancellation to the same participant exists. */
  superseded: boolean;
  /** An earlier invitation or update was sent to the same participant. */
  invited: boolean;
}

export type NewCalendarMail = Omit<
  CalendarMailRow,
  'id' | 'status' | 'attempt_count' | 'leased_until' | 'last_error' | 'sent_at'
>;

/** What becomes of a leased mail: its new fields, and whether it counts as an attempt. */
export interface MailSettlement {
  id: number;
  lease: EpochMs;
  patch: Partial<Pick<CalendarMailRow, 'status' | 'due_at' | 'last_error' | 'sent_at'>>;
  attempted: boolean;
}

/** Mails per INSERT: 12 values each, far below either engine's bound on parameters. */
const MAILS_PER_INSERT = 200;

/**
 * SQL of the calendar mails (src/calendar-mail owns calendar_invitations, calendar_mails and
 * calendar_mail_app_settings); it reads the interview's own tables, never writes them.
 */
export class CalendarMailStore extends Store {
  async eventForCalendar(eventId: string): Promise<EventForCalendar | undefined> {
    const event: EventRow | undefined = await this.db('interview_events')
      .where({ id: eventId })
      .first();
    if (!event) return undefined;
    const interviewers: InterviewerRow[] = await this.db('interviewers')
      .where({ event_id: eventId })
      .orderBy('position');
    const interviewees: IntervieweeRow[] = await this.db('interviewees').where({
      event_id: eventId,
    });
    const attendees: Attendee[] = [
      ...interviewees.map((row) => ({
        email: row.email,
        name: row.name,
        role: 'interviewee' as const,
        intervieweeId: row.id,
      })),
      ...interviewers.map((row) => ({
        email: row.email,
        name: row.name,
        role: 'interviewer' as const,
        intervieweeId: null,
      })),
    ];
    return {
      status: event.status,
      snapshot: {
        title: event.title,
        employerName: event.employer_name,
        startAt: Number(event.start_at),
        endAt: Number(event.end_at),
        timezone: event.timezone,
        attendees,
      },
    };
  }

  async invitation(eventId: string): Promise<CalendarInvitationRow | undefined> {
    return this.db('calendar_invitations').where({ event_id: eventId }).first();
  }

  async saveInvitation(row: CalendarInvitationRow): Promise<void> {
    await this.db('calendar_invitations')
      .insert(row)
      .onConflict('event_id')
      .merge(['sequence', 'snapshot', 'updated_at']);
  }

  /** The SEQUENCE the event's participants hold, or null when none was mailed. */
  async sequenceOf(eventId: string): Promise<number | null> {
    const row = await this.db('calendar_invitations')
      .where({ event_id: eventId })
      .first('sequence');
    return row ? Number(row.sequence) : null;
  }

  async appSettings(appId: string): Promise<CalendarMailAppSettingsRow | undefined> {
    const row = await this.db('calendar_mail_app_settings').where({ app_id: appId }).first();
    return (
      row && { ...row, invitations: Boolean(row.invitations), reminders: Boolean(row.reminders) }
    );
  }

  async saveAppSettings(row: CalendarMailAppSettingsRow): Promise<void> {
    await this.db('calendar_mail_app_settings')
      .insert(row)
      .onConflict('app_id')
      .merge(['invitations', 'reminders', 'updated_at']);
  }

  async dropPendingReminders(eventId: string): Promise<void> {
    await this.db('calendar_mails')
      .where({ event_id: eventId, kind: 'reminder', status: 'pending' })
      .delete();
  }

  async insertMails(mails: readonly NewCalendarMail[]): Promise<void> {
    const rows = mails.map((mail) => ({
      ...mail,
      status: 'pending',
      attempt_count: 0,
      leased_until: null,
      last_error: null,
      sent_at: null,
    }));
    for (let start = 0; start < rows.length; start += MAILS_PER_INSERT) {
      await this.db('calendar_mails').insert(rows.slice(start, start + MAILS_PER_INSERT));
    }
  }

  /** Whether a mail may be due: one plain read, so that an idle process costs little. */
  async anyDue(now: EpochMs): Promise<boolean> {
    const [row] = await this.db('calendar_mails')
      .where('status', 'pending')
      .andWhere('due_at', '<=', now)
      .select('id')
      .limit(1);
    return row !== undefined;
  }

  /**
   * Leases up to `limit` due mails, oldest due first, in one write transaction; rows other
   * processes are claiming at that moment are passed over, so each goes to one of them. An
   * invitation, update or cancellation waits while an earlier one to the same participant is
   * still to send, so that a participant's calendar gets them in order.
   */
  claim(now: EpochMs, lease: EpochMs, limit: number): Promise<CalendarMailRow[]> {
    return this.inTransaction(async (store) => {
      const candidates: Array<{ id: number }> = await store.dialect.skipLocked(
        store
          .db('calendar_mails as m')
          .select('m.id')
          .where('m.status', 'pending')
          .andWhere('m.due_at', '<=', now)
          .andWhere((q) => q.whereNull('m.leased_until').orWhere('m.leased_until', '<', now))
          .whereNotExists((q) =>
            q
              .select('e.id')
              .from('calendar_mails as e')
              .whereRaw('e.event_id = m.event_id')
              .whereRaw('e.recipient_email = m.recipient_email')
              .where('e.status', 'pending')
              .whereRaw('e.id < m.id')
              .whereNot('e.kind', 'reminder')
              .whereRaw("m.kind <> 'reminder'"),
          )
          .orderBy('m.due_at')
          .limit(limit),
        // The rows to lock, by their alias here.
        'm',
      );
      if (!candidates.length) return [];
      const ids = candidates.map((row) => Number(row.id));
      await store.db('calendar_mails').whereIn('id', ids).update({ leased_until: lease });
      const rows: CalendarMailRow[] = await store
        .db('calendar_mails')
        .whereIn('id', ids)
        .orderBy('due_at');
      return rows.map((row) => ({ ...row, id: Number(row.id), leased_until: lease }));
    });
  }

  /**
   * Where each of a claimed batch's mails stands, by mail id: two reads for the batch. A claim
   * holds at most one invitation, update or cancellation per participant of an event (the later
   * ones wait), so no mail of the batch decides another's check.
   */
  async sendChecks(
    mails: ReadonlyArray<Pick<CalendarMailRow, 'id' | 'event_id' | 'recipient_email' | 'kind'>>,
  ): Promise<Map<number, SendCheck>> {
    const eventIds = [...new Set(mails.map((mail) => mail.event_id))];
    const events: Array<Pick<EventRow, 'id' | 'status' | 'start_at'>> = eventIds.length
      ? await this.db('interview_events').whereIn('id', eventIds).select('id', 'status', 'start_at')
      : [];
    const eventOf = new Map(events.map((event) => [event.id, event]));
    const mailedIds = [
      ...new Set(mails.filter((mail) => mail.kind !== 'reminder').map((mail) => mail.event_id)),
    ];
    const others: Array<Pick<CalendarMailRow, 'id' | 'status' | 'event_id' | 'recipient_email'>> =
      mailedIds.length
        ? await this.db('calendar_mails')
            .whereIn('event_id', mailedIds)
            .whereNot('kind', 'reminder')
            .select('id', 'status', 'event_id', 'recipient_email')
        : [];
    const checks = new Map<number, SendCheck>();
    for (const mail of mails) {
      const event = eventOf.get(mail.event_id);
      const same =
        mail.kind === 'reminder'
          ? []
          : others.filter(
              (other) =>
                other.event_id === mail.event_id &&
                other.recipient_email === mail.recipient_email &&
                Number(other.id) !== mail.id,
            );
      checks.set(mail.id, {
        event: event ? { status: event.status, start_at: Number(event.start_at) } : null,
        superseded: same.some((other) => Number(other.id) > mail.id),
        invited: same.some((other) => Number(other.id) < mail.id && other.status === 'sent'),
      });
    }
    return checks;
  }

  /** The lobby tokens of each of these events, in the order they were made. */
  async lobbyTokensOf(
    eventIds: readonly string[],
  ): Promise<
    Map<string, Array<Pick<LobbyTokenRow, 'role' | 'interviewee_id' | 'token_encrypted'>>>
  > {
    const rows: Array<
      Pick<LobbyTokenRow, 'event_id' | 'role' | 'interviewee_id' | 'token_encrypted'>
    > = eventIds.length
      ? await this.db('lobby_tokens')
          .whereIn('event_id', [...new Set(eventIds)])
          .orderBy('created_at')
          .select('event_id', 'role', 'interviewee_id', 'token_encrypted')
      : [];
    const byEvent = new Map<
      string,
      Array<Pick<LobbyTokenRow, 'role' | 'interviewee_id' | 'token_encrypted'>>
    >();
    for (const { event_id: eventId, ...token } of rows) {
      const tokens = byEvent.get(eventId) ?? [];
      tokens.push(token);
      byEvent.set(eventId, tokens);
    }
    return byEvent;
  }

  /** Settles leased mails in one transaction; for each, false when its lease was not the sender's. */
  settleMany(settlements: readonly MailSettlement[]): Promise<boolean[]> {
    return this.inTransaction(async (store) => {
      const settled: boolean[] = [];
      for (const { id, lease, patch, attempted } of settlements) {
        settled.push(await store.settle(id, lease, patch, attempted));
      }
      return settled;
    });
  }

  /** Settles a leased mail; false when the lease was no longer this sender's. */
  async settle(
    id: number,
    lease: EpochMs,
    patch: Partial<Pick<CalendarMailRow, 'status' | 'due_at' | 'last_error' | 'sent_at'>>,
    attempted: boolean,
  ): Promise<boolean> {
    const changed = await this.db('calendar_mails')
      .where({ id, leased_until: lease, status: 'pending' })
      .update({
        ...patch,
        leased_until: null,
        ...(attempted && { attempt_count: this.db.raw('attempt_count + 1') }),
      });
    return changed === 1;
  }

  /** The event's calendar mails in the order written (tests, the CLI). */
  async mailsOf(eventId: string): Promise<CalendarMailRow[]> {
    return this.db('calendar_mails').where({ event_id: eventId }).orderBy('id');
  }
}

/** The stored JSON of a snapshot, read back. */
export function snapshotOf(json: string): CalendarSnapshot {
  return JSON.parse(json) as CalendarSnapshot;
}
