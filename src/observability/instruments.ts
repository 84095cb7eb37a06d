import { Counter, Histogram, register } from 'prom-client';

/**
 * The service's own series, registered once per process in prom-client's global registry: the
 * registry cluster workers report to the primary (AggregatorRegistry), and what /metrics serves
 * in a single process. Their names are an interface: dashboards and `npm run bench` read them.
 * Every label takes values from a small fixed set, so the number of series stays bounded.
 */

const SECONDS_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_SECONDS_BUCKETS = [
  0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5,
];

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by method, Express route pattern (unmatched when none) and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [register],
});

export const oauthTokensIssued = new Counter({
  name: 'oauth_tokens_issued_total',
  help: 'Token responses issued by the token endpoint, by grant type',
  labelNames: ['grant_type'] as const,
  registers: [register],
});

export const graphqlOperationDuration = new Histogram({
  name: 'graphql_operation_duration_seconds',
  help: 'GraphQL requests from parsed body to response, by operation type and name',
  labelNames: ['operation_type', 'operation_name'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [register],
});

export const graphqlErrors = new Counter({
  name: 'graphql_errors_total',
  help: 'Errors in GraphQL responses, by extensions.code',
  labelNames: ['code'] as const,
  registers: [register],
});

export const dbQueryDuration = new Histogram({
  name: 'db_query_duration_seconds',
  help: 'Database statements by operation (select, insert, update, delete, other)',
  labelNames: ['operation'] as const,
  buckets: QUERY_SECONDS_BUCKETS,
  registers: [register],
});

/** Records a token response of `grantType` (called once its tokens are stored). */
export function recordTokenIssued(grantType: string): void {
  oauthTokensIssued.inc({ grant_type: grantType });
}
