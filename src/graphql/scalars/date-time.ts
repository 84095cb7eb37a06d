import { createStringScalar, InvalidScalarValueError, quote } from './string-scalar.js';

/**
 * The internal value of DateTime, in both directions: the instant plus the UTC offset the caller
 * wrote it in, so that a value comes back in the offset it was sent with.
 */
export type OffsetDateTime = { epochMs: number; offsetMinutes: number };

const RFC3339_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const DATE_TIME_WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?$/;

const MS_PER_MINUTE = 60_000;
/** RFC 3339 offsets run from -23:59 to +23:59. */
const MAX_OFFSET_MINUTES = 23 * 60 + 59;
const MIN_YEAR = 0;
const MAX_YEAR = 9999;

/**
 * Parses an RFC 3339 date-time that carries a UTC offset (`Z` or `±HH:MM`). Fraction digits
 * beyond milliseconds are dropped. `-00:00` counts as offset zero.
 */
export function parseOffsetDateTime(text: string): OffsetDateTime {
  const match = RFC3339_DATE_TIME.exec(text);
  if (!match) {
    if (DATE_TIME_WITHOUT_OFFSET.test(text)) {
      throw new InvalidScalarValueError(
        `DateTime ${quote(text)} has no UTC offset; the offset is required: end it with "Z" for UTC or a numeric offset such as "-05:00"`,
      );
    }
    throw new InvalidScalarValueError(
      `DateTime ${quote(text)} is not an RFC 3339 date-time such as "2026-03-01T09:30:00-05:00"`,
    );
  }
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map(Number);
  const fraction = match[7] ?? '';
  const offsetSign = match[9] === '-' ? -1 : 1;
  const offsetHours = Number(match[10] ?? 0);
  const offsetMinutePart = Number(match[11] ?? 0);

  const problem =
    calendarProblem(year, month, day, hour, minute, second) ??
    offsetProblem(offsetHours, offsetMinutePart);
  if (problem) {
    throw new InvalidScalarValueError(
      `DateTime ${quote(text)} is not a valid date-time: ${problem}`,
    );
  }

  const milliseconds = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const offsetMinutes = offsetSign * (offsetHours * 60 + offsetMinutePart);
  const localMs = utcMilliseconds(year, month, day, hour, minute, second, milliseconds);
  // `-00:00` yields -0 here; `|| 0` makes it a plain 0, equal to the offset of a `Z` value.
  return { epochMs: localMs - offsetMinutes * MS_PER_MINUTE, offsetMinutes: offsetMinutes || 0 };
}

/**
 * Writes the instant as RFC 3339 in its own offset, e.g. `2026-03-01T09:30:00-05:00`, `Z` for
 * offset zero, with milliseconds only when they are not zero.
 */
export function formatOffsetDateTime(value: OffsetDateTime): string {
  const { epochMs, offsetMinutes } = value;
  if (!Number.isSafeInteger(epochMs)) {
    throw new InvalidScalarValueError(`DateTime epochMs must be an integer, got ${epochMs}`);
  }
  if (!Number.isInteger(offsetMinutes) || Math.abs(offsetMinutes) > MAX_OFFSET_MINUTES) {
    throw new InvalidScalarValueError(
      `DateTime offsetMinutes must be an integer from -${MAX_OFFSET_MINUTES} to ${MAX_OFFSET_MINUTES}, got ${offsetMinutes}`,
    );
  }
  const local = new Date(epochMs + offsetMinutes * MS_PER_MINUTE);
  const year = local.getUTCFullYear();
  if (Number.isNaN(year) || year < MIN_YEAR || year > MAX_YEAR) {
    throw new InvalidScalarValueError(
      `DateTime ${epochMs} with offset ${offsetMinutes} falls outside the years 0000-9999 that RFC 3339 can write`,
    );
  }
  // toISOString() of the shifted instant is the local wall-clock time: YYYY-MM-DDTHH:MM:SS.sssZ.
  const iso = local.toISOString();
  const milliseconds = local.getUTCMilliseconds() === 0 ? '' : iso.slice(19, 23);
  return `${iso.slice(0, 19)}${milliseconds}${formatOffset(offsetMinutes)}`;
}

export function isOffsetDateTime(value: unknown): value is OffsetDateTime {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.epochMs === 'number' && typeof candidate.offsetMinutes === 'number';
}

export const dateTimeScalar = createStringScalar<OffsetDateTime>({
  name: 'DateTime',
  parse: parseOffsetDateTime,
  format(value) {
    if (!isOffsetDateTime(value)) {
      throw new InvalidScalarValueError('DateTime can only serialize an OffsetDateTime object');
    }
    return formatOffsetDateTime(value);
  },
});

function calendarProblem(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): string | undefined {
  if (month < 1 || month > 12) return `month ${pad2(month)} does not exist`;
  const lastDay = daysInMonth(year, month);
  if (day < 1 || day > lastDay) {
    return `day ${pad2(day)} does not exist in ${String(year).padStart(4, '0')}-${pad2(month)}, which has ${lastDay} days`;
  }
  if (hour > 23) return `hour ${pad2(hour)} is out of range 00-23`;
  if (minute > 59) return `minute ${pad2(minute)} is out of range 00-59`;
  if (second > 59) {
    return `second ${pad2(second)} is out of range 00-59 (leap seconds are not supported)`;
  }
  return undefined;
}

function offsetProblem(hours: number, minutes: number): string | undefined {
  if (hours > 23) return `offset hour ${pad2(hours)} is out of range 00-23`;
  if (minutes > 59) return `offset minute ${pad2(minutes)} is out of range 00-59`;
  return undefined;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function utcMilliseconds(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  milliseconds: number,
): number {
  // Not Date.UTC: it maps the years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, milliseconds);
  return date.getTime();
}

function formatOffset(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'Z';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  return `${sign}${pad2(Math.floor(absolute / 60))}:${pad2(absolute % 60)}`;
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}
