import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../interviews/event-finder.js';
import {
  MAX_EVENT_IDS,
  NESTED_LIST_BOUNDS,
  type NestedListName,
} from '../../interviews/list-bounds.js';

/**
 * The cost model of the GraphQL gateway.
 *
 * The cost of an operation is the largest number of objects (values of an object, interface or
 * union type) its response can hold, whatever the data. Scalar and enum fields are free: they are
 * columns of rows that are loaded anyway. A field returning one object costs 1 plus what is
 * selected in it; a list of objects costs its number of items times that.
 *
 * How many items a list holds is decided by the field that returned the list's parent, listed
 * below by schema coordinate: `findVirtualInterviewEvents(first: 40)` makes the `edges` and
 * `events` of its connection hold 40 items, and `virtualInterviewEvents` as many events as it was
 * given ids. Nested connections hold at most what the Interview API's rules allow, or `first`. Any
 * other list counts as UNSIZED_LIST_ITEMS items. Introspection costs nothing here (see
 * isIntrospectionEntry).
 *
 * So `findVirtualInterviewEvents(first: 100) { events { id interviewersConnection { interviewers
 * { email } } } }` costs 1 + 100 × (1 + 1 + 50 × 1) = 5201.
 */

/** Items assumed for a list that no field argument or rule bounds. */
export const UNSIZED_LIST_ITEMS = 100;

/** Items in the lists of a field's result, from the field's (coerced) arguments. */
export type ListItems = (args: Record<string, unknown>) => number;

/**
 * Every bound here is one the Interview API enforces, so that the estimate is an upper bound of
 * the real answer: the resolvers refuse larger pages and id lists themselves (with a message of
 * their own), and a nested page never holds more than its list's bound (NESTED_LIST_BOUNDS,
 * src/interviews/list-bounds.ts). test/graphql/list-bounds.test.ts checks that every list field
 * of the schema is sized here and that no resolver answers more than this assumes.
 */
export const LIST_ITEMS_BY_FIELD: ReadonlyMap<string, ListItems> = new Map<string, ListItems>([
  ['Query.findVirtualInterviewEvents', ({ first }) => pageSize(first)],
  ['Query.virtualInterviewEvents', ({ input }) => idCount(input)],
  ['VirtualInterviewEvent.interviewersConnection', nestedPageSize('interviewersConnection')],
  ['VirtualInterviewEvent.intervieweesConnection', nestedPageSize('intervieweesConnection')],
  [
    'VirtualInterviewInterviewee.interviewRecordsConnection',
    nestedPageSize('interviewRecordsConnection'),
  ],
  [
    'VirtualInterviewRecord.interviewOutcomesConnection',
    nestedPageSize('interviewOutcomesConnection'),
  ],
]);

function pageSize(first: unknown): number {
  return typeof first === 'number' ? clamp(first, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
}

/** A nested connection holds its whole list, or `first` items when that is fewer. */
function nestedPageSize(list: NestedListName): ListItems {
  const bound = NESTED_LIST_BOUNDS[list];
  return ({ first }) => (typeof first === 'number' ? clamp(first, bound) : bound);
}

function idCount(input: unknown): number {
  const ids = (input as { ids?: unknown } | null | undefined)?.ids;
  // Repeated ids count each time: the answer holds an entry for each.
  return Array.isArray(ids) ? clamp(ids.length, MAX_EVENT_IDS) : 1;
}

function clamp(value: number, max: number): number {
  return Math.min(Math.max(value, 0), max);
}
