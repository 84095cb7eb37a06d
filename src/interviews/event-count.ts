import {
  intersect,
  isEmpty,
  withImpliedBounds,
  type EventFilters,
  type InstantRange,
} from './event-filter.js';
import { MAX_EVENT_DURATION_MS } from './rules/schedule.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole UTC days of start times, `fromDay <= day < untilDay` (day 0 is 1970-01-01); null is open. */
export interface DayRange {
  fromDay: number | null;
  untilDay: number | null;
}

/** Events whose start and end fall in these ranges, counted one by one. */
export interface ExactTerm {
  sign: 1 | -1;
  startAt: InstantRange;
  endAt: InstantRange;
}

/**
 * How a filtered count is assembled: the kept per-day counts of `wholeDays` plus (or minus) the
 * exact counts of `exact`. Each exact term spans at most one day of start times, so a count reads
 * the day counts of its range and the events of at most four days, however many events match.
 */
export interface CountPlan {
  /** Null when no whole day is summed; both sides null means every event (the kept total). */
  wholeDays: DayRange | null;
  exact: ExactTerm[];
}

const OPEN: InstantRange = { from: null, until: null };

/**
 * The plan for counting the events that pass `filters`. An end time filter is turned into a
 * start time window, because every event ends after it starts and at most
 * MAX_EVENT_DURATION_MS later (the schedule rules refuse anything else): an event ends in
 * `[from, until)` only if it starts in `[from - max, until)`, and only those starting within
 * `max` of either edge need their end checked.
 */
export function planCount(filters: EventFilters): CountPlan {
  const { startAt, endAt } = filters;
  if (isEmpty(startAt) || isEmpty(endAt)) return { wholeDays: null, exact: [] };
  const window = withImpliedBounds(filters).startAt;
  if (isEmpty(window)) return { wholeDays: null, exact: [] };

  const plan = startsWithin(window);
  if (endAt.from !== null) {
    const endsBefore = { from: endAt.from - MAX_EVENT_DURATION_MS, until: endAt.from };
    plan.exact.push(...excluded(window, endsBefore, { from: null, until: endAt.from }));
  }
  if (endAt.until !== null) {
    const endsAfter = { from: endAt.until - MAX_EVENT_DURATION_MS, until: endAt.until };
    plan.exact.push(...excluded(window, endsAfter, { from: endAt.until, until: null }));
  }
  return plan;
}

/** Events starting in `range`: the whole days inside it, and the partial days at its edges. */
function startsWithin(range: InstantRange): CountPlan {
  const fromDay = range.from === null ? null : Math.ceil(range.from / DAY_MS);
  const untilDay = range.until === null ? null : Math.floor(range.until / DAY_MS);
  if (fromDay !== null && untilDay !== null && fromDay >= untilDay) {
    return { wholeDays: null, exact: [{ sign: 1, startAt: range, endAt: OPEN }] };
  }
  const exact: ExactTerm[] = [];
  if (range.from !== null && fromDay !== null && range.from < fromDay * DAY_MS) {
    exact.push({ sign: 1, startAt: { from: range.from, until: fromDay * DAY_MS }, endAt: OPEN });
  }
  if (range.until !== null && untilDay !== null && untilDay * DAY_MS < range.until) {
    exact.push({ sign: 1, startAt: { from: untilDay * DAY_MS, until: range.until }, endAt: OPEN });
  }
  return { wholeDays: { fromDay, untilDay }, exact };
}

/** The events of `window` that start in `starts` and end in `ends`, to be taken away. */
function excluded(window: InstantRange, starts: InstantRange, ends: InstantRange): ExactTerm[] {
  const startAt = intersect(window, starts);
  return isEmpty(startAt) ? [] : [{ sign: -1, startAt, endAt: ends }];
}
