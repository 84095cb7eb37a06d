import { GraphQLError } from 'graphql';
import { DomainError, NotFoundError, TemporarilyUnavailable } from '../errors.js';

/**
 * The `extensions.code` values this gateway emits (DESIGN §4), `TEMPORARILY_UNAVAILABLE` for
 * a database too busy for now, answered with HTTP 503 and `Retry-After` (nothing was written),
 * and the refusals of persisted documents (src/graphql/persisted/).
 */
export type ErrorCode =
  | 'TEMPORARILY_UNAVAILABLE'
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'PERSISTED_QUERY_NOT_FOUND'
  | 'PERSISTED_QUERY_REQUIRED'
  | 'INTERNAL_SERVER_ERROR'
  /** Over the client's cost budget (src/graphql/budget/): HTTP 429 with Retry-After. */
  | 'RATE_LIMITED';

/**
 * A complete response body for an error raised before execution starts. A rejected token gets
 * `data: null` (DESIGN §4); a request that is not a GraphQL request at all gets no `data` key,
 * as GraphQL over HTTP prescribes for request errors.
 */
export function errorResponseBody(message: string, code: ErrorCode): string {
  const errors = [{ message, extensions: { code } }];
  return JSON.stringify(code === 'UNAUTHENTICATED' ? { data: null, errors } : { errors });
}

/**
 * Gives every error a code and masks the unexpected: an error whose cause is neither a
 * GraphQLError nor a domain error (unexpectedCause) reaches the client only as "Internal server
 * error"; the gateway has logged it in full under the request's id.
 */
export function formatGraphQLError(raw: Readonly<Error | GraphQLError>): GraphQLError {
  if (!(raw instanceof GraphQLError)) return masked();
  const cause = raw.originalError;
  if (cause instanceof TemporarilyUnavailable) {
    return new GraphQLError(cause.message, {
      path: raw.path,
      extensions: { code: 'TEMPORARILY_UNAVAILABLE' },
    });
  }
  if (cause instanceof DomainError) {
    return withCode(raw, cause instanceof NotFoundError ? 'NOT_FOUND' : 'BAD_USER_INPUT');
  }
  if (cause && !(cause instanceof GraphQLError)) return masked(raw);
  return withCode(raw, (raw.extensions.code as ErrorCode | undefined) ?? 'INTERNAL_SERVER_ERROR');
}

/** What formatGraphQLError masks, to be logged: the cause of an error nobody expected. */
export function unexpectedCause(raw: Readonly<Error | GraphQLError>): Readonly<Error> | undefined {
  if (!(raw instanceof GraphQLError)) return raw;
  const cause = raw.originalError;
  if (!cause || cause instanceof GraphQLError) return undefined;
  if (cause instanceof TemporarilyUnavailable || cause instanceof DomainError) return undefined;
  return cause;
}

function masked(error?: GraphQLError): GraphQLError {
  return new GraphQLError('Internal server error', {
    path: error?.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}

function withCode(error: GraphQLError, code: ErrorCode): GraphQLError {
  if (error.extensions.code === code) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...error.extensions, code },
  });
}

/** True when `error` (as execution reports it) is a busy database's: the answer is a 503. */
export function isTemporarilyUnavailable(error: GraphQLError): boolean {
  return error.originalError instanceof TemporarilyUnavailable;
}
