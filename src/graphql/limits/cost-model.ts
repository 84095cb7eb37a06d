/**
 * The cost model of the GraphQL gateway.
 *
 * The cost of an operation is the largest number of objects (values of an object, interface or
 * union type) its response can hold, whatever the data. Scalar and enum fields are free: they are
 * columns of rows that are loaded anyway. A field returning one object costs 1 plus what is
 * selected in it; a list of objects costs its number of items times that.
 *
 * How many items a list holds is decided by the field that returned the list's parent: each API
 * registers these by schema coordinate (GraphQLApi.listItems; the Interview API's are in
 * src/interviews/list-items.ts): `findVirtualInterviewEvents(first: 40)` makes the `edges` and
 * `events` of its connection hold 40 items, and `virtualInterviewEvents` as many events as it was
 * given ids. Any other list counts as UNSIZED_LIST_ITEMS items. Introspection costs nothing here
 * (see isIntrospectionEntry).
 *
 * So `findVirtualInterviewEvents(first: 100) { events { id interviewersConnection { interviewers
 * { email } } } }` costs 1 + 100 × (1 + 1 + 50 × 1) = 5201.
 */

/** Items assumed for a list that no field argument or rule bounds. */
export const UNSIZED_LIST_ITEMS = 100;

/** Items in the lists of a field's result, from the field's (coerced) arguments. */
export type ListItems = (args: Record<string, unknown>) => number;

/** Items of the lists below each field that sizes them, by schema coordinate (`Type.field`). */
export type ListItemsByField = ReadonlyMap<string, ListItems>;
