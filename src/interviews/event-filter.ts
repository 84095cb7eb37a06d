import type {
  FindVirtualInterviewEventsInput,
  VirtualInterviewEventDateTimeRangeFilterInput,
} from '../../generated/graphql.js';

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
