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

/** Page size of `findVirtualInterviewEvents` when `first` is left out. */
const DEFAULT_PAGE_SIZE = 20;
/** The resolvers refuse larger pages and id lists themselves, with a message of their own. */
const MAX_PAGE_SIZE = 100;
const MAX_IDS = 100;
/** Items assumed for a list that no field argument or rule bounds. */
export const UNSIZED_LIST_ITEMS = 100;

/** Items in the lists of a field's result, from the field's (coerced) arguments. */
export type ListItems = (args: Record<string, unknown>) => number;

export const LIST_ITEMS_BY_FIELD: ReadonlyMap<string, ListItems> = new Map<string, ListItems>([
  ['Query.findVirtualInterviewEvents', ({ first }) => pageSize(first)],
  ['Query.virtualInterviewEvents', ({ input }) => idCount(input)],
  // 49 invited interviewers at most, plus the creator who is added automatically.
  ['VirtualInterviewEvent.interviewersConnection', nestedPageSize(50)],
  // Zero or one interviewee per event.
  ['VirtualInterviewEvent.intervieweesConnection', nestedPageSize(1)],
  // A record per admission from the lobby: no hard bound, and rarely more than a few.
  ['VirtualInterviewInterviewee.interviewRecordsConnection', nestedPageSize(5)],
  // One outcome per interviewer of the event.
  ['VirtualInterviewRecord.interviewOutcomesConnection', nestedPageSize(50)],
]);

function pageSize(first: unknown): number {
  return typeof first === 'number' ? clamp(first, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
}

/** A nested connection holds its whole list, or `first` items when that is fewer. */
function nestedPageSize(listBound: number): ListItems {
  return ({ first }) => (typeof first === 'number' ? clamp(first, listBound) : listBound);
}

function idCount(input: unknown): number {
  const ids = (input as { ids?: unknown } | null | undefined)?.ids;
  return Array.isArray(ids) ? clamp(ids.length, MAX_IDS) : 1;
}

function clamp(value: number, max: number): number {
  return Math.min(Math.max(value, 0), max);
}
