import type { CalendarMailSettings } from '../config.js';
import { afterCommit, type Executor } from '../db/transactions.js';
import type { WebhookNotice } from '../webhooks/notice.js';
import { recordAll, type WebhookOutbox } from '../webhooks/outbox.js';
import { CalendarMailStore } from './calendar-mail-store.js';
import { planCalendarMails } from './mail-plan.js';

/** The changes of an interview that its participants' calendars hear of. */
const CALENDAR_CHANGES: ReadonlySet<string> = new Set([
  'interview.event.created.v1',
  'interview.event.updated.v1',
  'interview.event.cancelled.v1',
]);

/**
 * Hears every change of an interview in its own transaction, beside the webhook outbox, and
 * writes the calendar mails it calls for there: a change that rolls back mails nothing, one that
 * commits never loses its mails. The participants' SEQUENCE is kept whether or not the app
 * mails, so that the lobby's calendar file and later mails agree.
 */
export class CalendarChanges implements WebhookOutbox {
  constructor(
    private readonly settings: Pick<CalendarMailSettings, 'remindersBeforeMs'>,
    /** Told once a transaction that wrote mails commits (this process's sender wakes). */
    private readonly committed: () => void = () => {},
  ) {}

  async record(notice: WebhookNotice, tx: Executor): Promise<void> {
    if (!CALENDAR_CHANGES.has(notice.type)) return;
    const store = new CalendarMailStore(tx);
    const eventId = notice.subject;
    const event = await store.eventForCalendar(eventId);
    if (!event) return;
    // A new event has no invitation yet, nor reminders to replace.
    const previous =
      notice.type === 'interview.event.created.v1' ? null : await store.invitation(eventId);
    const app = await store.appSettings(notice.appId);
    const plan = planCalendarMails({
      previous: previous
        ? { sequence: Number(previous.sequence), snapshot: JSON.parse(previous.snapshot) }
        : null,
      current: event.snapshot,
      cancelled: event.status === 'CANCELLED',
      now: notice.time,
      invitations: app?.invitations ?? true,
      remindersBeforeMs: (app?.reminders ?? true) ? this.settings.remindersBeforeMs : [],
    });
    if (!plan) return;
    await store.saveInvitation({
      event_id: eventId,
      sequence: plan.sequence,
      snapshot: JSON.stringify(plan.snapshot),
      updated_at: notice.time,
    });
    if (previous) await store.dropPendingReminders(eventId);
    await store.insertMails(
      plan.mails.map((mail) => ({
        event_id: eventId,
        kind: mail.kind,
        recipient_email: mail.to.email.toLowerCase(),
        recipient_role: mail.to.role,
        interviewee_id: mail.to.intervieweeId,
        sequence: mail.sequence,
        snapshot: JSON.stringify(mail.snapshot),
        minutes_before: mail.minutesBefore,
        due_at: mail.dueAt,
        created_at: notice.time,
      })),
    );
    if (plan.mails.some((mail) => mail.dueAt <= notice.time)) afterCommit(tx, this.committed);
  }
}

/** `outbox`, and `calendar` after it, in the same transaction. */
export function alsoTelling(outbox: WebhookOutbox, calendar: WebhookOutbox): WebhookOutbox {
  return {
    async record(notice, tx) {
      await outbox.record(notice, tx);
      await calendar.record(notice, tx);
    },
    async recordAll(notices, tx) {
      await recordAll(outbox, notices, tx);
      await recordAll(calendar, notices, tx);
    },
  };
}
