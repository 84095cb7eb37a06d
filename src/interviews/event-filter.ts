import type {
  FindVirtualInterviewEventsInput,
  VirtualInterviewEventDateTimeRangeFilterInput,
} from '../../generated/graphql.js';
import { MAX_EVENT_DURATION_MS } from './rules/schedule.js';

/**
 * A half-open range of instants in epoch milliseconds: `from <= t < until`. A null side is open.
 * A range whose `from` is not before its `until` holds no instant at all, so it matches nothing;
 * it is not refused, because a zero-width window `[t, t)` is a legitimate (empty) range and a
 * caller that computes windows should not have to treat it specially.
 */
export interface InstantRange {
  from: number | null;
  until: number | null;
}

/** The filters of a `findVirtualInterviewEvents` request, as instants. */
export interface EventFilters {
  startAt: InstantRange;
  endAt: InstantRange;
}

export function eventFilters(input: FindVirtualInterviewEventsInput): EventFilters {
  return { startAt: instantRange(input.startTime), endAt: instantRange(input.endTime) };
}

/**
 * The same filters, each range narrowed by what the other implies: every event ends after it
 * starts and at most MAX_EVENT_DURATION_MS later (the schedule rules refuse anything else), so
 * an event that ends in `[from, until)` starts in `[from - max, until)`, and one that starts in
 * `[from, until)` ends in `[from, until + max)`. They match exactly the same events; the bounds
 * let an index on either column start and stop near the matching events.
 */
export function withImpliedBounds({ startAt, endAt }: EventFilters): EventFilters {
  return {
    startAt: intersect(startAt, {
      from: endAt.from === null ? null : endAt.from - MAX_EVENT_DURATION_MS,
      until: endAt.until,
    }),
    endAt: intersect(endAt, {
      from: startAt.from,
      until: startAt.until === null ? null : startAt.until + MAX_EVENT_DURATION_MS,
    }),
  };
}

/** True when no instant passes the range. */
export function isEmpty(range: InstantRange): boolean {
  return range.from !== null && range.until !== null && range.from >= range.until;
}

export function intersect(a: InstantRange, b: InstantRange): InstantRange {
  return { from: later(a.from, b.from), until: earlier(a.until, b.until) };
}

function later(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}

function earlier(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

/** A canonical text of the filters, e.g. `start_at [1772375400000,) end_at [,)`. */
export function describeFilters(filters: EventFilters): string {
  return `start_at ${describeRange(filters.startAt)} end_at ${describeRange(filters.endAt)}`;
}

// Bounds are instants: the offset a bound was written in does not matter, so it is dropped.
function instantRange(
  filter: VirtualInterviewEventDateTimeRangeFilterInput | null | undefined,
): InstantRange {
  return { from: filter?.after?.epochMs ?? null, until: filter?.before?.epochMs ?? null };
}

function describeRange(range: InstantRange): string {
  return `[${range.from ?? ''},${range.until ?? ''})`;
}
