import type { ServerResponse } from 'node:http';
import { GraphQLError, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import type { Response as GraphQLHttpResponse } from 'graphql-http';
import { recordGraphQLError } from '../../observability/graphql-metrics.js';
import type { Principal } from '../context.js';
import { operationLabel } from '../limits/document-walk.js';
import type { Admission, BudgetStatus, CostAdmission } from './cost-budget.js';

/** Where the gateway keeps what a request costs, on the request, from admission to answer. */
export const REQUEST_COST = Symbol('graphql.requestCost');

export interface RequestCost {
  requested: number;
  /** The client's budget after admission; absent when budgets are off. */
  status?: BudgetStatus;
}

export interface CostCarrier {
  [REQUEST_COST]?: RequestCost;
}

/** What the admission step hands back to graphql-http's onSubscribe. */
export type Refusal = GraphQLError[] | GraphQLHttpResponse;

/**
 * Charges an operation's requested cost to the caller's budget (none is charged when budgets
 * are off). Undefined when it is admitted (synchronously while a lease covers it), else the
 * answer: 429 over budget, or BAD_USER_INPUT for a cost above the whole budget, which waiting
 * would not change.
 */
export function admitRequest(
  budgets: CostAdmission | undefined,
  request: CostCarrier,
  principal: Principal,
  operation: OperationDefinitionNode,
  requested: number,
): Refusal | undefined | Promise<Refusal | undefined> {
  request[REQUEST_COST] = { requested };
  if (!budgets) return undefined;
  const admission = budgets.admit(principal.appId, requested);
  if (!isPromise(admission)) return decided(admission, request, operation, requested);
  return admission.then((known) => decided(known, request, operation, requested));
}

function decided(
  admission: Admission,
  request: CostCarrier,
  operation: OperationDefinitionNode,
  requested: number,
): Refusal | undefined {
  request[REQUEST_COST] = { requested, status: admission.status };
  if (admission.admitted) return undefined;
  const { status } = admission;
  if ('exceedsBudget' in admission) {
    return [
      new GraphQLError(
        `${operationLabel(operation)} costs ${requested}, more than the client's whole budget of ` +
          `${status.limit} per ${status.windowSeconds} s. Ask for fewer items with "first" or ` +
          'fewer ids, or select fewer nested connections.',
        { nodes: operation, extensions: { code: 'BAD_USER_INPUT', cost: costOf(requested) } },
      ),
    ];
  }
  recordGraphQLError('RATE_LIMITED');
  const error = {
    message:
      `Over the client's cost budget of ${status.limit} per ${status.windowSeconds} s: this ` +
      `operation costs ${requested} and ${status.remaining} is left. Retry after ` +
      `${admission.retryAfterSeconds} s.`,
    extensions: {
      code: 'RATE_LIMITED',
      retryAfterSeconds: admission.retryAfterSeconds,
      cost: { ...costOf(requested), throttleStatus: throttleStatus(status) },
    },
  };
  return [
    JSON.stringify({ data: null, errors: [error] }),
    {
      status: 429,
      statusText: 'Too Many Requests',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'retry-after': String(admission.retryAfterSeconds),
        ...rateLimitHeaders(status),
      },
    },
  ];
}

/** The result with `extensions.cost`: requested, actual (what the answer held), the budget. */
export function withCost(
  result: ExecutionResult,
  request: CostCarrier,
  actualCost: number,
): ExecutionResult {
  const cost = request[REQUEST_COST];
  if (!cost) return result;
  return {
    ...result,
    extensions: {
      ...result.extensions,
      cost: {
        requestedQueryCost: cost.requested,
        actualQueryCost: actualCost,
        ...(cost.status && { throttleStatus: throttleStatus(cost.status) }),
      },
    },
  };
}

/** RateLimit-Limit, -Remaining and -Reset on every answer of an admitted request. */
export function setRateLimitHeaders(response: ServerResponse, request: CostCarrier): void {
  const status = request[REQUEST_COST]?.status;
  if (!status) return;
  for (const [name, value] of Object.entries(rateLimitHeaders(status))) {
    response.setHeader(name, value);
  }
}

function rateLimitHeaders(status: BudgetStatus): Record<string, string> {
  return {
    'ratelimit-limit': String(status.limit),
    'ratelimit-remaining': String(status.remaining),
    'ratelimit-reset': String(status.resetSeconds),
  };
}

function costOf(requested: number) {
  return { requestedQueryCost: requested };
}

function throttleStatus(status: BudgetStatus) {
  return {
    maximumAvailable: status.limit,
    currentlyAvailable: status.remaining,
    windowSeconds: status.windowSeconds,
    // Each charge comes back whole once it has left the window: on average this much a second.
    restoreRate: Math.round((status.limit / status.windowSeconds) * 100) / 100,
  };
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T> | null)?.then === 'function';
}
