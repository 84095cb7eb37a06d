import type { PageInfo } from '../../../generated/graphql.js';
import { ValidationError } from '../../errors.js';
import { pageSize } from '../../validation/page-size.js';
import type { EndpointView } from '../endpoint-service.js';

export { pageSize };

/**
 * Attempts of one delivery an answer lists at most: the latest ones (WebhookDelivery.attempts,
 * whose `@listSize(assumedSize:)` in schema/webhooks.graphql is this number).
 */
export const MAX_ATTEMPTS_LISTED = 100;

export interface Edge<Node> {
  node: Node;
  cursor: string;
}

/** Edges and page info of a forward-only page. */
export function connectionOf<Node>(edges: Edge<Node>[], hasNextPage: boolean) {
  const pageInfo: PageInfo = {
    hasNextPage,
    hasPreviousPage: false,
    startCursor: edges[0]?.cursor ?? null,
    endCursor: edges.at(-1)?.cursor ?? null,
  };
  return { edges, pageInfo };
}

/**
 * One page of an app's endpoints, oldest first. The whole list is
 * small (WEBHOOK_ENDPOINTS_PER_APP), so it is paged here; a cursor is a position in that order,
 * so that an endpoint deleted between two pages moves nothing.
 */
export function endpointPage(
  endpoints: readonly EndpointView[],
  page: { first?: number | null; after?: string | null },
) {
  const size = pageSize(page.first);
  const after = page.after ? endpointPosition(page.after) : null;
  // Sorted here too, so that ties on createdAt follow the cursor's order whatever the collation.
  const ordered = [...endpoints].sort((a, b) => (comesAfter(a, b) ? 1 : -1));
  const following = after ? ordered.filter((endpoint) => comesAfter(endpoint, after)) : ordered;
  const edges = following.slice(0, size).map((node) => ({ node, cursor: endpointCursor(node) }));
  return { ...connectionOf(edges, following.length > size), totalCount: endpoints.length };
}

type Position = Pick<EndpointView, 'createdAt' | 'id'>;

function comesAfter(endpoint: Position, after: Position): boolean {
  return (
    endpoint.createdAt > after.createdAt ||
    (endpoint.createdAt === after.createdAt && endpoint.id > after.id)
  );
}

function endpointCursor(endpoint: Position): string {
  return Buffer.from(`${endpoint.createdAt}.${endpoint.id}`).toString('base64url');
}

function endpointPosition(cursor: string): Position {
  const match = /^(\d{1,16})\.([\w-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new ValidationError('after is not a cursor of this list', 'after');
  return { createdAt: Number(match[1]), id: match[2]! };
}
