import { GraphQLError } from 'graphql';

/**
 * The answer of an operation whose interview service has not landed yet (issue #4). It fails
 * loudly, with a message saying so, rather than returning an empty or invented result.
 */
export function notServedYet(operation: string): never {
  throw new GraphQLError(`${operation} is not served by this version of the service yet`, {
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}
