import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { CalendarMailSettings } from '../config.js';
import type { CalendarMailRow, LobbyTokenRow } from '../db/rows.js';
import { linksFromTokens, type LobbyLinks } from '../interviews/lobby-links.js';
import type { EventStatus } from '../interviews/vocabulary.js';
import { calendarUid } from '../lobby/calendar-event.js';
import type { Mailer } from '../mail/mailer.js';
import type { SecretBox } from '../security/secret-box.js';
import { calendarMail, organizerOf } from './calendar-mail-message.js';
import {
  snapshotOf,
  type CalendarMailStore,
  type MailSettlement,
  type SendCheck,
} from './calendar-mail-store.js';

type LobbyTokenOfMail = Pick<LobbyTokenRow, 'role' | 'interviewee_id' | 'token_encrypted'>;

/** Mails one claim takes. */
const BATCH = 20;
/**
 * How long a claimed mail is this sender's. Longer than nodemailer's longest wait on a server
 * (its 10-minute socket timeout), so that no other process sends a mail still being handed over;
 * a process that dies holding mails delays them this long.
 */
export const CALENDAR_MAIL_LEASE_MS = 11 * 60_000;

/** An event in one of these statuses gets no reminder. */
const NO_REMINDER: ReadonlySet<EventStatus> = new Set(['CANCELLED', 'ENDED', 'ARCHIVED']);

export interface SenderDependencies {
  store: CalendarMailStore;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  settings: Pick<CalendarMailSettings, 'retryScheduleMs' | 'pollMs'>;
  lobbyTokens: SecretBox;
  publicUrl: string;
  mailFrom: string;
}

/**
 * Sends the calendar mails that are due, each by one process of those sharing the database: a
 * mail is leased before it is sent and settled under its lease. A mail SMTP refuses is tried again
 * on CALENDAR_MAIL_RETRY_SCHEDULE, then given up. A process that dies between handing a mail over
 * and settling it leaves it to be sent again when the lease runs out (at least once).
 */
export class CalendarMailSender {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /** Outcomes waiting to be recorded, and the write under way. */
  private readonly settlements: Array<{
    settlement: MailSettlement;
    resolve(settled: boolean): void;
    reject(error: unknown): void;
  }> = [];
  private writingSettlements: Promise<void> | undefined;

  constructor(private readonly deps: SenderDependencies) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Sends nothing more; waits for the mails in hand. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Looks for due mails now rather than at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.tick();
  }

  /**
   * Waits for a round in progress (a commit's wake), then sends every mail due now: once it
   * resolves, everything due has been handed over. How many this call settled.
   */
  async flush(): Promise<number> {
    await this.running;
    return this.sendDueNow();
  }

  /** Sends every mail due now; how many were settled (sent, skipped or given up). */
  async sendDueNow(): Promise<number> {
    const { store, clock } = this.deps;
    let settled = 0;
    for (;;) {
      const now = clock.now();
      if (!(await store.anyDue(now))) return settled;
      const lease = now + CALENDAR_MAIL_LEASE_MS;
      const claimed = await store.claim(now, lease, BATCH);
      if (!claimed.length) return settled;
      const checks = await store.sendChecks(claimed);
      const links = this.linksOf(await store.lobbyTokensOf(claimed.map((m) => m.event_id)));
      const written: Array<Promise<boolean>> = [];
      for (const mail of claimed) {
        const outcome = await this.send(mail, checks.get(mail.id)!, links);
        const settling = this.settleSoon({ id: mail.id, lease, ...outcome });
        // Awaited below with the others; a write failing meanwhile is not unhandled.
        settling.catch(() => {});
        written.push(settling);
      }
      settled += (await Promise.all(written)).filter(Boolean).length;
    }
  }

  /**
   * Records a mail's outcome with the others that end while a write is under way, in one
   * transaction (group commit): a mail is recorded as soon as the write before it commits, so
   * a process that dies after handing mails over sends again only those of the write in hand.
   */
  private settleSoon(settlement: MailSettlement): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.settlements.push({ settlement, resolve, reject });
      this.writeSettlements();
    });
  }

  private writeSettlements(): void {
    if (this.writingSettlements || !this.settlements.length) return;
    const group = this.settlements.splice(0);
    this.writingSettlements = this.deps.store
      .settleMany(group.map((entry) => entry.settlement))
      .then(
        (results) => group.forEach((entry, index) => entry.resolve(results[index]!)),
        (error: unknown) => group.forEach((entry) => entry.reject(error)),
      )
      .finally(() => {
        this.writingSettlements = undefined;
        this.writeSettlements();
      });
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.tick(), this.deps.settings.pollMs);
    this.timer.unref();
  }

  private tick(): void {
    this.running = this.sendDueNow()
      .then(
        () => {},
        (error: unknown) =>
          this.deps.logger.error({ err: error }, 'calendar mails: sending failed'),
      )
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.tick();
        } else {
          this.schedule();
        }
      });
  }

  /** Sends or skips one leased mail; what is to be recorded of it. */
  private async send(
    mail: CalendarMailRow,
    check: SendCheck,
    links: (eventId: string) => LobbyLinks,
  ): Promise<Omit<MailSettlement, 'id' | 'lease'>> {
    const { clock, logger } = this.deps;
    const skip = skipReason(mail, check, clock.now());
    if (skip) return { patch: { status: 'skipped', last_error: skip }, attempted: false };
    try {
      await this.deps.mailer.send(this.render(mail, links(mail.event_id)));
    } catch (error) {
      const attempts = mail.attempt_count + 1;
      const pause = this.deps.settings.retryScheduleMs[attempts - 1];
      // The server's answer, never the mail: its links are capabilities.
      const reason = String((error as Error).message ?? error).slice(0, 500);
      logger.warn(
        { calendarMailId: mail.id, kind: mail.kind, attempts, err: reason },
        pause === undefined ? 'calendar mail given up' : 'calendar mail not sent; will retry',
      );
      return {
        patch:
          pause === undefined
            ? { status: 'failed', last_error: reason }
            : { due_at: clock.now() + pause, last_error: reason },
        attempted: true,
      };
    }
    return { patch: { status: 'sent', sent_at: clock.now() }, attempted: true };
  }

  /** Each event's lobby links, its tokens unsealed once for all its mails. */
  private linksOf(tokens: Map<string, LobbyTokenOfMail[]>): (eventId: string) => LobbyLinks {
    const { lobbyTokens, publicUrl } = this.deps;
    const made = new Map<string, LobbyLinks>();
    return (eventId) => {
      let links = made.get(eventId);
      if (!links) {
        links = linksFromTokens(tokens.get(eventId) ?? [], lobbyTokens, publicUrl);
        made.set(eventId, links);
      }
      return links;
    };
  }

  private render(mail: CalendarMailRow, links: LobbyLinks) {
    const { publicUrl, clock, mailFrom } = this.deps;
    // Each participant gets only their own way in: an interviewee their lobby, interviewers theirs.
    const lobbyUrl =
      mail.recipient_role === 'interviewee'
        ? (mail.interviewee_id && links.intervieweeLobbyUrls.get(mail.interviewee_id)) || null
        : links.interviewerLobbyUrl;
    const snapshot = snapshotOf(mail.snapshot);
    return calendarMail({
      kind: mail.kind,
      to: { email: mail.recipient_email, role: mail.recipient_role },
      uid: calendarUid(mail.event_id, publicUrl),
      sequence: Number(mail.sequence),
      snapshot,
      minutesBefore: mail.minutes_before === null ? null : Number(mail.minutes_before),
      organizer: organizerOf(mailFrom, snapshot.employerName),
      now: clock.now(),
      lobbyUrl,
    });
  }
}

/** Why a due mail goes unsent, or null when it is to be sent. */
function skipReason(mail: CalendarMailRow, check: SendCheck, now: number): string | null {
  if (!check.event) return 'the interview is gone';
  if (mail.kind === 'reminder') {
    if (NO_REMINDER.has(check.event.status)) return `the interview is ${check.event.status}`;
    if (now >= check.event.start_at) return 'the interview has started';
    // Sent this late (no process was sending), its "starts in …" would mislead.
    if (check.event.start_at - now < (Number(mail.minutes_before) * 60_000) / 2) {
      return 'too late for this reminder';
    }
    return null;
  }
  // The later mail carries everything this one would: sending both risks their arriving out
  // of order.
  if (check.superseded) return 'superseded by a later mail';
  if (mail.kind === 'cancellation' && !check.invited) return 'never invited';
  return null;
}
