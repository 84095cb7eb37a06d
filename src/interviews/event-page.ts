import type { EventRow } from '../db/rows.js';
import type { EventGraph } from './event-graph.js';

/**
 * One page of `findVirtualInterviewEvents`, the parent of its connection's fields (codegen.ts
 * maps `VirtualInterviewEventsConnection` to it). The count of every matching event costs a
 * statement of its own, so it is made only when `totalCount` is selected.
 */
export interface EventPage {
  edges: Array<{ node: EventRow; cursor: string }>;
  events: EventRow[];
  /** The page's events with the lists that were read with them. */
  graphs: EventGraph[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  /** How many events pass the filters, whatever the page; counted once, on the first call. */
  countMatching(): Promise<number>;
}
