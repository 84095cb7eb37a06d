import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';

export type PreparedDocument = { document: DocumentNode } | { errors: GraphQLError[] };

/**
 * Parses and validates a query, tagging failures with GRAPHQL_PARSE_FAILED or
 * GRAPHQL_VALIDATION_FAILED so that clients can tell a malformed document from a bad input.
 */
export function prepareDocument(schema: GraphQLSchema, query: string): PreparedDocument {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return { errors: [tagged(error, 'GRAPHQL_PARSE_FAILED')] };
  }
  const errors = validate(schema, document);
  if (errors.length) return { errors: errors.map((e) => tagged(e, 'GRAPHQL_VALIDATION_FAILED')) };
  return { document };
}

function tagged(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { ...error.extensions, code },
  });
}
