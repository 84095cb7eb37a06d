import type { GraphQLError, OperationDefinitionNode } from 'graphql';
import { BoundedLabels } from './bounded-labels.js';
import { graphqlErrors, graphqlOperationDuration } from './instruments.js';

const OPERATION = Symbol('graphql-metrics.operation');

interface NotedRequest {
  [OPERATION]?: OperationDefinitionNode;
}

const operationNames = new BoundedLabels(100);
const errorCodes = new BoundedLabels(50);

/** Notes the operation a request runs, once its document is known to be valid. */
export function noteGraphQLOperation(request: object, operation: OperationDefinitionNode): void {
  (request as NotedRequest)[OPERATION] = operation;
}

/**
 * Wraps graphql-http's handler: each request's time from parsed body to response goes into
 * graphql_operation_duration_seconds under the operation noted for it (`unknown` and
 * `anonymous` when its document was not valid).
 */
export function timingGraphQLRequests<Req extends { raw: object }, Res>(
  handle: (request: Req) => Promise<Res>,
): (request: Req) => Promise<Res> {
  return async (request) => {
    const startedAt = performance.now();
    const response = await handle(request);
    const operation = (request.raw as NotedRequest)[OPERATION];
    graphqlOperationDuration.observe(
      {
        operation_type: operation?.operation ?? 'unknown',
        operation_name: operationNames.label(operation?.name?.value ?? 'anonymous'),
      },
      (performance.now() - startedAt) / 1000,
    );
    return response;
  };
}

/** Wraps the gateway's error formatter: every error it formats is counted by its code. */
export function countingGraphQLErrors<Raw>(
  format: (error: Raw) => GraphQLError,
): (error: Raw) => GraphQLError {
  return (error) => {
    const formatted = format(error);
    recordGraphQLError(String(formatted.extensions.code ?? 'INTERNAL_SERVER_ERROR'));
    return formatted;
  };
}

/** Counts an error the gateway answers without the formatter (authentication, body). */
export function recordGraphQLError(code: string): void {
  graphqlErrors.inc({ code: errorCodes.label(code) });
}
