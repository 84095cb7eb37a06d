import type { PageInfo } from '../../../generated/graphql.js';

export interface Edge<Node> {
  node: Node;
  cursor: string;
}

/** A connection over a complete list: one page holding every item, in the given order. */
export interface WholeList<Node> {
  edges: Array<Edge<Node>>;
  nodes: Node[];
  pageInfo: PageInfo;
  totalCount: number;
}

/**
 * Nested lists (an event's interviewers, an interviewee's records, a record's outcomes) are
 * small and bounded, so they come whole. Their cursors name the item they point at.
 */
export function wholeList<Node extends { id: string }>(nodes: Node[]): WholeList<Node> {
  const edges = nodes.map((node) => ({
    node,
    cursor: Buffer.from(`id:${node.id}`).toString('base64url'),
  }));
  return {
    edges,
    nodes,
    totalCount: nodes.length,
    pageInfo: {
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
