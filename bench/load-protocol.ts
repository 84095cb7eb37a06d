/** One measurement the harness asks the load driver (bench/load-driver.ts) for. */
export interface LoadJob {
  id: number;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Each request takes the next body; the measurement ends early when they run out. */
  bodies?: string[];
  connections: number;
  seconds: number;
  /** Requests per second over all connections, steadily; absent for as many as they can. */
  rate?: number;
  /** Count responses whose body carries a GraphQL `errors` member. */
  graphql: boolean;
  /** Count responses whose body does not hold this text. */
  bodyMustInclude?: string;
}

/** What the driver prints for a job, one JSON line. */
export interface LoadResult {
  id: number;
  /** 2xx responses per second of measurement. */
  requestsPerSecond: number;
  /** Responses received (any status). */
  responses: number;
  seconds: number;
  /** Latency of 2xx responses, in milliseconds (microsecond precision). */
  latency: { p50: number; p95: number; p99: number };
  non2xx: number;
  /** Connection errors and timeouts. */
  socketErrors: number;
  /** Responses whose body had GraphQL `errors` (only counted when the job asked). */
  graphqlErrors: number;
  /** Responses whose body lacked the job's `bodyMustInclude`. */
  unexpectedBodies: number;
  statusCodes: Record<string, number>;
  /** The job's bodies ran out before its time was up. */
  bodiesExhausted: boolean;
}

export interface LoadFailure {
  id: number;
  error: string;
}
