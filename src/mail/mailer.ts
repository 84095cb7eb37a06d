/** One message: a plain-text part (always) and an HTML part. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** An iTIP calendar message (RFC 6047): sent as a text/calendar part and a .ics attachment. */
  calendar?: CalendarPart;
}

export interface CalendarPart {
  /** The iCalendar METHOD, repeated as the part's `method` parameter. */
  method: 'REQUEST' | 'CANCEL';
  /** The VCALENDAR text. */
  content: string;
  /** The attachment's name. */
  filename: string;
}

/** Where the service's mail goes: SMTP, or the log (and the development outbox). */
export interface Mailer {
  /** Resolves once the message is handed over; rejects when it could not be. */
  send(mail: Mail): Promise<void>;
}

/** The links of a message's text part: what the log and the development outbox show. */
export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((match) => match[0]);
}
