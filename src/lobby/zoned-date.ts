import type { ICalTZDateStub } from 'ical-generator';
import { dateTimeFormat } from '../date-time-formats.js';

type WallClock = Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;

/**
 * An instant whose calendar fields (getFullYear … getSeconds) read in one IANA time zone, in the
 * shape of @date-fns/tz's TZDate that ical-generator accepts for DTSTART;TZID=…. A plain Date
 * would be written in the process's own time zone under the event's TZID; this one gives the
 * event zone's wall-clock time whatever zone the service runs in. Its time value stays the true
 * instant, so comparisons, getTime and toISOString are those of a Date.
 */
export class ZonedDate extends Date implements ICalTZDateStub {
  /** The instant as a plain Date; ical-generator tells a TZDate by this and `tzComponents`. */
  readonly internal: Date;
  /** The fields last read, and the instant they are of (a Date's time can be set). */
  private wallClock: { at: number; fields: WallClock } | undefined;

  constructor(
    at: number,
    readonly timeZone: string,
  ) {
    super(at);
    this.internal = new Date(at);
  }

  withTimeZone(timeZone?: string | null): ZonedDate {
    return new ZonedDate(this.getTime(), timeZone ?? this.timeZone);
  }

  /** The wall-clock fields in the zone; month counts from 1. */
  tzComponents(): WallClock {
    const at = this.getTime();
    if (this.wallClock?.at === at) return this.wallClock.fields;
    const parts = dateTimeFormat('en-US', {
      timeZone: this.timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(at);
    const field = (type: Intl.DateTimeFormatPartTypes) =>
      Number(parts.find((part) => part.type === type)?.value);
    const fields = {
      year: field('year'),
      month: field('month'),
      day: field('day'),
      hour: field('hour'),
      minute: field('minute'),
      second: field('second'),
    };
    this.wallClock = { at, fields };
    return fields;
  }

  override getFullYear(): number {
    return this.tzComponents().year;
  }

  override getMonth(): number {
    return this.tzComponents().month - 1;
  }

  override getDate(): number {
    return this.tzComponents().day;
  }

  override getHours(): number {
    return this.tzComponents().hour;
  }

  override getMinutes(): number {
    return this.tzComponents().minute;
  }

  override getSeconds(): number {
    return this.tzComponents().second;
  }
}
