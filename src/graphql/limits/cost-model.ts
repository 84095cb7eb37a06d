/**
 * The cost model of the GraphQL gateway, declared in the SDL with the GraphQL cost directives
 * (IBM's specification; both are declared in schema/common.graphql).
 *
 * The cost of an operation is the largest number of objects (values of an object, interface or
 * union type) its answer can hold, whatever the data. Scalar and enum fields are free: they are
 * columns of rows that are loaded anyway. A field returning one object costs 1 plus what is
 * selected in it; a list of objects costs its number of items times that. `@cost(weight:)` on a
 * field or a type replaces that 1 (or a scalar's 0); the APIs declare none today, so a unit is
 * one object.
 *
 * How many items a list holds is declared by `@listSize` on the field that returns it, or, for
 * the lists of a connection, on the field that returns the connection (`sizedFields`):
 * `findVirtualInterviewEvents(first: 40)` makes the `edges` and `events` of its connection hold
 * 40 items, `virtualInterviewEvents(input: { ids })` as many events as it was given ids
 * (`slicingArguments: ["input.ids"]`), and a list without a slicing argument given holds its
 * `assumedSize`: the most the API ever returns there (an unpaged nested connection holds its
 * whole list, bounded by the Interview API's rules). Any other list counts as
 * UNSIZED_LIST_ITEMS items, and test/graphql/list-bounds.test.ts fails naming any list that
 * would. Introspection costs nothing here (see isIntrospectionEntry).
 *
 * Fields are counted as graphql executes them: a fragment's fields once per place it is spread,
 * two selections of the same response key once, each alias on its own, and of the possible types
 * of an interface or union, the costliest. `@skip` and `@include` are not evaluated, so the cost
 * is an upper bound either way.
 *
 * So `findVirtualInterviewEvents(first: 100) { events { id interviewersConnection { interviewers
 * { email } } } }` costs 1 + 100 × (1 + 1 + 50 × 1) = 5201.
 *
 * The analysis is compiled once per document (cost-plan.ts) into a function of the variables;
 * each answer reports the estimate as `extensions.cost.requestedQueryCost` and the objects it
 * really held, weighed the same way, as `actualQueryCost` (answer-size.ts).
 */

/** Items assumed for a list that no `@listSize` sizes. */
export const UNSIZED_LIST_ITEMS = 100;
