import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { linksIn, type Mail, type Mailer } from './mailer.js';

/** How many mails the development outbox keeps. */
export const OUTBOX_SIZE = 50;

export interface OutboxEntry {
  sentAt: number;
  to: string;
  subject: string;
  text: string;
  links: string[];
  /** The calendar part of an interview's calendar mail (its METHOD and VCALENDAR text). */
  calendar?: { method: string; content: string };
}

/**
 * Development without SMTP_URL: every mail is logged with its links (they are capability
 * secrets, which is why this runs only outside production) and the last ones are kept in memory
 * for the console's /console/dev/outbox page. Each process keeps its own.
 */
export class OutboxMailer implements Mailer {
  private readonly entries: OutboxEntry[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {}

  async send(mail: Mail): Promise<void> {
    const entry = {
      sentAt: this.clock.now(),
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      links: linksIn(mail.text),
      ...(mail.calendar && {
        calendar: { method: mail.calendar.method, content: mail.calendar.content },
      }),
    };
    this.entries.unshift(entry);
    this.entries.length = Math.min(this.entries.length, OUTBOX_SIZE);
    this.logger.info(
      { mail: { to: entry.to, subject: entry.subject, links: entry.links } },
      'mail kept in the development outbox (SMTP_URL is not set)',
    );
  }

  /** The kept mails, newest first. */
  list(): readonly OutboxEntry[] {
    return [...this.entries];
  }
}

/**
 * Production without SMTP_URL: nothing can be delivered, but nothing disappears silently
 * either. Each mail's subject and recipient are logged as a warning; its links are not.
 */
export class UndeliveredMailLog implements Mailer {
  constructor(private readonly logger: Logger) {}

  async send(mail: Mail): Promise<void> {
    this.logger.warn(
      { mail: { to: mail.to, subject: mail.subject } },
      'mail not sent: SMTP_URL is not set',
    );
  }
}
