import type { ListItems } from '../graphql/api.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './event-finder.js';
import { MAX_EVENT_IDS, NESTED_LIST_BOUNDS, type NestedListName } from './list-bounds.js';

/**
 * How many items the Interview API's lists hold, for the gateway's cost model
 * (src/graphql/limits/cost-model.ts), by the schema coordinate of the field that returns the
 * list's parent. Every bound here is one the Interview API enforces, so that the estimate is an
 * upper bound of the real answer: the resolvers refuse larger pages and id lists themselves (with a
 * message of their own), and a nested page never holds more than its list's bound
 * (NESTED_LIST_BOUNDS, list-bounds.ts). test/graphql/list-bounds.test.ts checks that every list
 * field of the schema is sized here and that no resolver answers more than this assumes.
 */
export const INTERVIEW_LIST_ITEMS: ReadonlyMap<string, ListItems> = new Map<string, ListItems>([
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
