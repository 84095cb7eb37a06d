import type { FindVirtualInterviewEventsInput } from '../../generated/graphql.js';
import { ValidationError } from '../errors.js';
import { planCount } from './event-count.js';
import type { CursorScope, EventCursors } from './event-cursor.js';
import { eventFilters } from './event-filter.js';
import type { EventParts } from './event-graph.js';
import type { EventPage } from './event-page.js';
import type { EventSearchStore } from './event-search-store.js';
import { eventOrder, positionOf } from './event-sort.js';

export interface FindEventsRequest {
  employerId: string;
  first: number | null | undefined;
  after: string | null | undefined;
  input: FindVirtualInterviewEventsInput;
  /** The lists to read with the page's events. */
  parts: EventParts;
}

/** Page size when `first` is omitted (DESIGN §5). */
export const DEFAULT_PAGE_SIZE = 20;
/** Largest page a caller may ask for (DESIGN §4, §5). */
export const MAX_PAGE_SIZE = 100;

/** findVirtualInterviewEvents: filtered, sorted, keyset-paginated reads of one employer's events. */
export class EventFinder {
  constructor(
    private readonly store: EventSearchStore,
    private readonly cursors: EventCursors,
  ) {}

  /**
   * One page in one query, fetched one row long so that `hasNextPage` needs no second query;
   * the count of every matching event is a second query, made only if the page is asked for it.
   *
   * Paging is forward only, so `hasPreviousPage` is true exactly when a valid `after` cursor was
   * given: the event it names came before this page. (If that event has since been deleted,
   * the page still starts at its old position.)
   */
  async find(request: FindEventsRequest): Promise<EventPage> {
    const size = pageSize(request.first);
    const scope: CursorScope = {
      employerId: request.employerId,
      order: eventOrder(request.input.sort),
      filters: eventFilters(request.input),
    };
    // Only null/undefined mean "from the start"; an empty string is a malformed cursor.
    const after = request.after == null ? null : this.cursors.decode(request.after, scope);
    const rows = await this.store.page({ ...scope, after, limit: size + 1, parts: request.parts });

    const graphs = rows.slice(0, size);
    const events = graphs.map(({ event }) => event);
    const edges = events.map((node) => ({
      node,
      cursor: this.cursors.encode(positionOf(node, scope.order), scope),
    }));
    let counted: Promise<number> | undefined;
    return {
      edges,
      events,
      graphs,
      countMatching: () =>
        (counted ??= this.store.count(scope.employerId, planCount(scope.filters))),
      pageInfo: {
        hasNextPage: rows.length > size,
        hasPreviousPage: after !== null,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
    };
  }
}

function pageSize(first: number | null | undefined): number {
  return first == null ? DEFAULT_PAGE_SIZE : checkedPageSize(first);
}

/** `first` as every connection of the Interview API accepts it: 0 to MAX_PAGE_SIZE. */
export function checkedPageSize(first: number): number {
  if (first < 0 || first > MAX_PAGE_SIZE) {
    throw new ValidationError(
      `first must be between 0 and ${MAX_PAGE_SIZE}, got ${first}; walk longer lists page by ` +
        'page with after',
      'first',
    );
  }
  return first;
}
