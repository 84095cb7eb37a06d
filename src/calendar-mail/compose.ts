import type { MailCapability } from '../mail/compose.js';
import type { SharedDependencies } from '../shared-dependencies.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import { AppCalendarSettings } from './app-calendar-settings.js';
import { alsoTelling, CalendarChanges } from './calendar-changes.js';
import { CalendarMailSender } from './calendar-mail-sender.js';
import { CalendarMailStore } from './calendar-mail-store.js';

export interface RunningCalendarMail {
  /** Sends nothing more; waits for the mails in hand. */
  stop(): Promise<void>;
  /** Sends every mail due now, after a round in progress (tests; the poll does it otherwise). */
  sendDueNow(): Promise<number>;
}

/**
 * Calendar mails of interviews (README "Calendar mails"): invitations, updates and cancellations
 * with an iTIP part, and reminders, to each participant. Changes write them in their own
 * transaction (`observing`); a sender in each process mails them when due.
 */
export interface CalendarMail {
  /** `outbox`, also telling the calendar mails of each change (off: `outbox` itself). */
  observing(outbox: WebhookOutbox): WebhookOutbox;
  /** Each app's switches. */
  appSettings: AppCalendarSettings;
  /** The SEQUENCE an event's participants hold, or null (the lobby's calendar file uses it). */
  sequenceOf(eventId: string): Promise<number | null>;
  /** Starts this process's sender (once per process); null when CALENDAR_MAIL_SENDER is off. */
  startSending(): RunningCalendarMail | null;
}

export function composeCalendarMail(
  shared: SharedDependencies,
  deps: { mail: Pick<MailCapability, 'mailer'> },
): CalendarMail {
  const { db, config, clock, logger } = shared;
  const settings = config.calendarMail;
  const store = new CalendarMailStore(db);
  let sender: CalendarMailSender | undefined;
  const changes = new CalendarChanges(settings, () => sender?.wake());
  return {
    observing: (outbox) => (settings.enabled ? alsoTelling(outbox, changes) : outbox),
    appSettings: new AppCalendarSettings(store, clock, shared.audit),
    sequenceOf: (eventId) => store.sequenceOf(eventId),
    startSending() {
      if (!settings.enabled || !settings.sender) return null;
      if (sender) throw new Error('the calendar mail sender is already running');
      const started = new CalendarMailSender({
        store,
        mailer: deps.mail.mailer,
        clock,
        logger,
        settings,
        lobbyTokens: shared.boxes.lobbyTokens,
        publicUrl: config.publicUrl,
        mailFrom: config.mail.from,
      });
      sender = started;
      started.start();
      return {
        stop: async () => {
          await started.stop();
          if (sender === started) sender = undefined;
        },
        sendDueNow: () => started.flush(),
      };
    },
  };
}
