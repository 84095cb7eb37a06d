import type {
  VirtualInterviewEventSortField,
  VirtualInterviewEventSortOptionInput,
} from '../../generated/graphql.js';
import type { EventRow } from '../db/rows.js';
import { ValidationError } from '../errors.js';

/** The columns of `interview_events` an event list is ordered by. */
export type EventSortColumn = 'start_at' | 'end_at' | 'id';

export interface EventSortKey {
  column: EventSortColumn;
  descending: boolean;
}

/**
 * A total order of events: the requested keys, most significant first, then the event id
 * ascending, so that no two events ever tie and a page boundary is always well defined.
 */
export type EventOrder = readonly EventSortKey[];

/** Where an event sits in an order: its value for each key of the order, in the same sequence. */
export type EventPosition = ReadonlyArray<number | string>;

const COLUMN_OF_FIELD: Record<VirtualInterviewEventSortField, EventSortColumn> = {
  START_TIME: 'start_at',
  END_TIME: 'end_at',
};

const DEFAULT_SORT: readonly VirtualInterviewEventSortOptionInput[] = [
  { field: 'START_TIME', order: 'ASC' },
];

const TIE_BREAKER: EventSortKey = { column: 'id', descending: false };

/**
 * The order a `findVirtualInterviewEvents` request asks for. No sort options (or an empty list)
 * means START_TIME ascending. A field named twice is refused: its second mention could never
 * decide anything, so it is almost certainly a mistake in the caller's query.
 */
export function eventOrder(
  sort: readonly VirtualInterviewEventSortOptionInput[] | null | undefined,
): EventOrder {
  const options = sort?.length ? sort : DEFAULT_SORT;
  const seen = new Set<VirtualInterviewEventSortField>();
  const keys = options.map((option, index): EventSortKey => {
    if (seen.has(option.field)) {
      throw new ValidationError(
        `input.sort[${index}] sorts by ${option.field} again; each sort field may appear only once`,
        'input.sort',
      );
    }
    seen.add(option.field);
    return { column: COLUMN_OF_FIELD[option.field], descending: option.order === 'DESC' };
  });
  return [...keys, TIE_BREAKER];
}

export function positionOf(event: EventRow, order: EventOrder): EventPosition {
  return order.map((key) => event[key.column]);
}

/** A canonical text of an order, e.g. `end_at desc,start_at asc,id asc`. */
export function describeOrder(order: EventOrder): string {
  return order.map((key) => `${key.column} ${key.descending ? 'desc' : 'asc'}`).join(',');
}
