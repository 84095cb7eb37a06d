import { InputProblem, type InputPath } from '../../validation/input-text.js';

/** `2024-05-01T10:00Z`, `2024-05-01T10:00:00.000+02:00`: seconds and fraction optional. */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/;

/** Clients' clocks run a little ahead of ours: this much of the future is still "now". */
export const CLOCK_SKEW_MS = 60_000;

/**
 * When a posting was published, in epoch ms: an ISO 8601 date-time with an offset, not in the
 * future (a posting cannot be scheduled, platform-apis.md §3.6). Absent: `now`.
 */
export function checkDatePublished(
  value: string | null | undefined,
  path: InputPath,
  now: number,
): number | null {
  if (value == null) return null;
  const epochMs = parseIsoDateTime(value);
  if (epochMs === null) {
    throw new InputProblem(
      `datePublished ${JSON.stringify(value.slice(0, 40))} is not a valid datetime: use ISO ` +
        '8601 with a UTC offset, such as 2024-05-01T10:00Z',
      path,
    );
  }
  if (epochMs > now + CLOCK_SKEW_MS) {
    throw new InputProblem(
      'datePublished must not be in the future: postings cannot be scheduled',
      path,
    );
  }
  return epochMs;
}

function parseIsoDateTime(value: string): number | null {
  const match = ISO_DATE_TIME.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '0', fraction = '0', zone] = match;
  const parts = [year, month, day, hour, minute, second].map(Number) as number[];
  const [y, mo, d, h, mi, s] = parts as [number, number, number, number, number, number];
  const utc = Date.UTC(y, mo - 1, d, h, mi, s, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const check = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (
    check.getUTCFullYear() !== y ||
    check.getUTCMonth() !== mo - 1 ||
    check.getUTCDate() !== d ||
    check.getUTCHours() !== h ||
    check.getUTCMinutes() !== mi
  ) {
    return null;
  }
  if (zone === 'Z') return utc;
  const sign = zone!.startsWith('-') ? -1 : 1;
  const [offsetHours, offsetMinutes] = zone!.slice(1).split(':').map(Number) as [number, number];
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  return utc - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}
