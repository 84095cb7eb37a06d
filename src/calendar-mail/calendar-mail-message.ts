import type { CalendarMailKind } from '../db/rows.js';
import { describeSchedule } from '../lobby/schedule.js';
import type { Mail } from '../mail/mailer.js';
import { paragraphMail as message, type Paragraph } from '../mail/paragraph-mail.js';
import { itipFile } from './itip-file.js';
import type { Attendee, CalendarSnapshot } from './mail-plan.js';

export interface CalendarMailContent {
  kind: CalendarMailKind;
  to: Pick<Attendee, 'email' | 'role'>;
  uid: string;
  sequence: number;
  snapshot: CalendarSnapshot;
  /** A reminder's offset before the start, in minutes. */
  minutesBefore: number | null;
  organizer: { name: string; email: string };
  /** When the mail is made: the calendar part's DTSTAMP. */
  now: number;
  /** The recipient's own lobby link (an interviewee's lobby, or the interviewers'). */
  lobbyUrl: string | null;
}

/**
 * A calendar mail: the text and HTML parts every participant reads and, for an invitation, an
 * update or a cancellation, the iTIP part their calendar acts on. A reminder is a plain mail.
 */
export function calendarMail(content: CalendarMailContent): Mail {
  const { kind, snapshot, lobbyUrl } = content;
  const when = whenText(snapshot);
  const what = snapshot.employerName
    ? `${snapshot.title} with ${snapshot.employerName}`
    : snapshot.title;
  const way =
    content.to.role === 'interviewee'
      ? 'Your interview lobby, where you check in when it is time:'
      : 'The interviewer lobby, where you admit the candidate:';
  const linkParagraphs = lobbyUrl ? [way, { link: lobbyUrl }] : [];
  const subject = {
    invitation: `Invitation: ${snapshot.title} - ${when}`,
    update: `Updated: ${snapshot.title} - ${when}`,
    cancellation: `Cancelled: ${snapshot.title} - ${when}`,
    reminder: `Reminder: ${snapshot.title} starts in ${offsetText(content.minutesBefore ?? 0)}`,
  }[kind];
  const lead = {
    invitation: `You are invited to an interview: ${what}.`,
    update: `This interview was changed: ${what}. Your calendar's copy is updated.`,
    cancellation: `This interview is cancelled: ${what}. It is removed from your calendar.`,
    reminder: `Your interview starts in ${offsetText(content.minutesBefore ?? 0)}: ${what}.`,
  }[kind];
  const paragraphs: Paragraph[] =
    kind === 'cancellation'
      ? [lead, `It was planned for ${when}.`]
      : [lead, `When: ${when}`, ...linkParagraphs];
  const mail = message(content.to.email, subject, paragraphs);
  if (kind === 'reminder') return mail;
  const method = kind === 'cancellation' ? 'CANCEL' : 'REQUEST';
  const ics = itipFile({
    uid: content.uid,
    sequence: content.sequence,
    method,
    snapshot,
    organizer: content.organizer,
    stamp: content.now,
    lobbyUrl: kind === 'cancellation' ? null : lobbyUrl,
    description: mail.text,
  });
  return {
    ...mail,
    calendar: {
      method,
      content: ics,
      filename: kind === 'cancellation' ? 'cancel.ics' : 'invite.ics',
    },
  };
}

/** The From of MAIL_FROM as an organizer: `Name <address>` or a bare address. */
export function organizerOf(mailFrom: string, employerName: string | null) {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(mailFrom);
  const email = (match?.[2] ?? mailFrom).trim();
  const name = employerName ?? (match?.[1]?.trim() || email);
  return { name, email };
}

/** "Tuesday, December 1, 2026 at 9:00 AM – 10:00 AM Eastern Standard Time (14:00 UTC)". */
function whenText(snapshot: CalendarSnapshot): string {
  const schedule = describeSchedule(snapshot);
  const local = `${schedule.local.start} – ${schedule.local.end} ${schedule.local.zoneName}`;
  return snapshot.timezone === 'UTC' || snapshot.timezone === 'Etc/UTC'
    ? local
    : `${local} (${schedule.utc.start} – ${schedule.utc.end} UTC)`;
}

function offsetText(minutes: number): string {
  if (minutes % 1440 === 0 && minutes > 2880) return plural(minutes / 1440, 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
