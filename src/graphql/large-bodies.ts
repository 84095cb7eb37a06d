import type { ServerResponse } from 'node:http';
import express from 'express';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import type { Logger } from 'pino';
import { ByteBudget } from '../byte-budget.js';
import type { PlainHandler, PlainNext, PlainRequest } from '../http/endpoint.js';

/**
 * Requests whose operations may have a body past BODY_LIMIT_BYTES (a Job Sync batch of 100
 * postings), up to their own limit; the bodies of such requests that one process holds at once
 * are bounded too (`budgetBytes`), so that many of them cannot exhaust the heap.
 */
export interface LargeBodies {
  limitBytes: number;
  budgetBytes: number;
  /** `Mutation.field` of the root fields whose requests may be large. */
  rootFields: ReadonlySet<string>;
}

const LARGE = Symbol('graphql.largeBody');
type MarkedRequest = PlainRequest & { [LARGE]?: number };

/**
 * The JSON body parser of /graphql. A body that declares (Content-Length) more than
 * `bodyLimitBytes` and at most the large limit is read when the process's budget of large bodies
 * has room (else 503 with Retry-After), and marked: `refusesLargeBody` then lets it run only if
 * every root field of its operation is one that may be large. A body without a declared length
 * keeps the ordinary limit.
 */
export function graphqlJsonBody(
  bodyLimitBytes: number,
  large: LargeBodies | undefined,
  logger: Logger,
  busy: (res: ServerResponse) => void,
): PlainHandler {
  const type = 'application/json';
  const ordinary = express.json({ limit: bodyLimitBytes, type }) as PlainHandler;
  if (!large || large.limitBytes <= bodyLimitBytes) return ordinary;
  const big = express.json({ limit: large.limitBytes, type }) as PlainHandler;
  const budget = new ByteBudget(large.budgetBytes, logger, 'large GraphQL request bodies');
  return (req: MarkedRequest, res: ServerResponse, next: PlainNext) => {
    const declared = Number(req.headers['content-length']);
    const isLarge =
      Number.isSafeInteger(declared) && declared > bodyLimitBytes && declared <= large.limitBytes;
    if (!isLarge) return ordinary(req, res, next);
    if (!budget.take(declared)) {
      busy(res);
      return undefined;
    }
    let held = true;
    const release = () => {
      if (held) budget.give(declared);
      held = false;
    };
    res.once('finish', release);
    res.once('close', release);
    req[LARGE] = declared;
    return big(req, res, (error?: unknown) => {
      if (error) return next(error);
      // Any other operation is refused as an ordinary body past the limit is (413), before it
      // runs; the gateway checks the operation it runs again (refusesLargeBody).
      if (mayBeLarge(req.body, large)) return next();
      release();
      return next(
        Object.assign(new Error('request entity too large'), {
          status: 413,
          type: 'entity.too.large',
          limit: bodyLimitBytes,
          length: declared,
        }),
      );
    });
  };
}

/** Whether a parsed body's operation has only root fields that may come in a large body. */
function mayBeLarge(body: unknown, large: LargeBodies): boolean {
  const { query, operationName } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return false;
  let document;
  try {
    document = parse(query, { maxTokens: 10_000 });
  } catch {
    return false;
  }
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION,
  );
  const operation =
    typeof operationName === 'string'
      ? operations.find((candidate) => candidate.name?.value === operationName)
      : operations.length === 1
        ? operations[0]
        : undefined;
  return operation !== undefined && onlyLargeRootFields(operation, large);
}

/** Whether every root field of `operation` is one whose requests may be large. */
function onlyLargeRootFields(operation: OperationDefinitionNode, large: LargeBodies): boolean {
  const root = operation.operation === 'mutation' ? 'Mutation' : 'Query';
  return operation.selectionSet.selections.every(
    (selection) =>
      selection.kind === Kind.FIELD && large.rootFields.has(`${root}.${selection.name.value}`),
  );
}

/**
 * Why a request read with the large limit may not run `operation`; undefined when it may (every
 * root field is one of `large.rootFields`) or when its body was an ordinary one.
 */
export function refusesLargeBody(
  req: PlainRequest,
  operation: OperationDefinitionNode,
  large: LargeBodies | undefined,
  bodyLimitBytes: number,
): string | undefined {
  const bytes = (req as MarkedRequest)[LARGE];
  if (bytes === undefined || !large) return undefined;
  if (onlyLargeRootFields(operation, large)) return undefined;
  const fields = [...large.rootFields].map((field) => field.replace(/^Mutation\./, '')).join(', ');
  return (
    `The request body is ${bytes} bytes, more than the ${bodyLimitBytes} bytes allowed; only ` +
    `requests whose root fields are all among ${fields} may be larger.`
  );
}
