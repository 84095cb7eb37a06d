import { ValidationError } from '../errors.js';
import { checkedPageSize } from './event-finder.js';
import { NESTED_LIST_BOUNDS, type NestedListName } from './list-bounds.js';

export interface Edge<Node> {
  node: Node;
  cursor: string;
}

/** One page of a nested list (an event's interviewers, an interviewee's records, ...). */
export interface NestedPage<Node> {
  edges: Array<Edge<Node>>;
  nodes: Node[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  /** Items in the whole list, whatever the page. */
  totalCount: number;
}

export interface NestedPageArgs {
  first?: number | null;
  after?: string | null;
}

const CURSOR_PREFIX = 'id:';
/**
 * Ids are UUIDs, or two for an outcome (its record's and its interviewer's, 102 characters as a
 * cursor); a cursor much longer than that is not worth decoding.
 */
const MAX_CURSOR_LENGTH = 120;

/**
 * A page of a nested connection. These lists are small, bounded and already loaded whole by the
 * request's loaders, so a page is a slice of the list: no SQL beyond what the list cost.
 *
 * A cursor names the item it points at (the spelling these connections have always had, so an
 * unpaged answer is unchanged); `after` is accepted only when it is spelled exactly as issued and
 * names an item of this very list, so a cursor from another list, a forged one or one whose item
 * has left the list is refused rather than silently restarting the list. Without `first` the
 * page runs to the end of the list: the whole list without `after`, as before paging existed.
 * Either way a page holds at most the list's bound (NESTED_LIST_BOUNDS), which the cost model
 * relies on: rows stored before a bound existed, or past it, are left to later pages.
 *
 * A parent met again in the same request (an id repeated in `virtualInterviewEvents`) has the
 * same list from the loaders, and gets the same page object back instead of a new one.
 */
export function nestedPage<Node extends { id: string }>(
  list: readonly Node[],
  args: NestedPageArgs,
  listName: NestedListName,
): NestedPage<Node> {
  const key = JSON.stringify([listName, args.first ?? null, args.after ?? null]);
  let pages = pagesOfList.get(list);
  const known = pages?.get(key);
  if (known) return known as NestedPage<Node>;
  const page = slicePage(list, args, listName);
  if (!pages) pagesOfList.set(list, (pages = new Map()));
  pages.set(key, page);
  return page;
}

/** Pages already made, by the list they were cut from (lists live as long as their request). */
const pagesOfList = new WeakMap<readonly object[], Map<string, NestedPage<unknown>>>();

function slicePage<Node extends { id: string }>(
  list: readonly Node[],
  args: NestedPageArgs,
  listName: NestedListName,
): NestedPage<Node> {
  const bound = NESTED_LIST_BOUNDS[listName];
  const size = Math.min(pageSize(args.first) ?? bound, bound);
  // Only null/undefined mean "from the start"; an empty string is a malformed cursor.
  const start = args.after == null ? 0 : positionAfter(list, args.after, listName);
  const nodes = list.slice(start, start + size);
  const edges = nodes.map((node) => ({ node, cursor: cursorOf(node.id) }));
  return {
    edges,
    nodes,
    totalCount: list.length,
    pageInfo: {
      hasNextPage: start + nodes.length < list.length,
      hasPreviousPage: args.after != null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

function cursorOf(id: string): string {
  return Buffer.from(`${CURSOR_PREFIX}${id}`, 'utf8').toString('base64url');
}

/** The index of the first item after the one `cursor` names. */
function positionAfter(list: readonly { id: string }[], cursor: string, listName: string): number {
  if (cursor.length <= MAX_CURSOR_LENGTH) {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    const id = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : undefined;
    // Exactly the issued spelling: no second encoding of the same bytes passes.
    if (id !== undefined && cursorOf(id) === cursor) {
      const index = list.findIndex((item) => item.id === id);
      if (index >= 0) return index + 1;
    }
  }
  throw new ValidationError(
    `after is not a cursor of this ${listName}: pass the endCursor of an earlier page of the ` +
      `same ${listName} of the same parent (if its item has left the list since, start again ` +
      'without after)',
    'after',
  );
}

function pageSize(first: number | null | undefined): number | undefined {
  return first == null ? undefined : checkedPageSize(first);
}
