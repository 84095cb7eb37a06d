import type { ServerResponse } from 'node:http';
import { Router } from 'express';
import {
  GraphQLError,
  getOperationAST,
  getVariableValues,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import {
  createHandler,
  type RequestParams,
  type Response as GraphQLHttpResponse,
} from 'graphql-http';
import type { Logger } from 'pino';
import typeis from 'type-is';
import type { GraphQLLimits } from '../config.js';
import type { TemporarilyUnavailable } from '../errors.js';
import {
  mountErrorHandlers,
  mountPost,
  type PlainNext,
  type PlainRequest,
  type PostEndpoint,
} from '../http/endpoint.js';
import { recognise } from '../http/errors.js';
import { graphqlJsonBody, refusesLargeBody, type LargeBodies } from './large-bodies.js';
import { sendJsonText } from '../http/json-answer.js';
import { isRefusal, type BearerRefusal } from '../oauth/tokens/bearer-refusal.js';
import {
  countingGraphQLErrors,
  noteGraphQLOperation,
  recordGraphQLError,
  timingGraphQLRequests,
} from '../observability/graphql-metrics.js';
import { CompiledExecutor } from './compiled-execution.js';
import type { ContextFactory, GatewayContext, Principal } from './context.js';
import { DocumentCache } from './document.js';
import {
  formatGraphQLError,
  errorResponseBody,
  isTemporarilyUnavailable,
  unexpectedCause,
  type ErrorCode,
} from './errors.js';
import type { CostAdmission } from './budget/cost-budget.js';
import {
  admitRequest,
  setRateLimitHeaders,
  withCost,
  type CostCarrier,
} from './budget/request-cost.js';
import { AnswerBudget, countAnswers } from './limits/answer-size.js';
import { CostLimit } from './limits/cost-limit.js';
import type { PersistedDocuments } from './persisted/persisted-documents.js';
import { readRequestedDocument, type RequestedDocument } from './persisted/persisted-request.js';
import { RequestedDocuments } from './persisted/requested-documents.js';

/**
 * Resolves a bearer token to its principal; else why it is refused (the verifier says), or null
 * for a refusal without a reason (test doubles).
 */
export type BearerAuthenticator = (token: string) => Promise<Principal | BearerRefusal | null>;

export interface GatewayOptions<Context extends GatewayContext> {
  schema: GraphQLSchema;
  authenticate: BearerAuthenticator;
  /** Adds what the API's resolvers need (its loaders and services) to the gateway's context. */
  createContext: ContextFactory<Context>;
  bodyLimitBytes: number;
  /** Operations whose requests may exceed bodyLimitBytes (Job Sync's batches); none: none. */
  largeBodies?: LargeBodies;
  logger: Logger;
  /** Abuse limits and document cache size. */
  limits: GraphQLLimits;
  /** Documents requests may name by hash (src/graphql/persisted/). */
  persisted: PersistedDocuments;
  /** Only persisted documents run: a document's text is refused (PERSISTED_QUERY_REQUIRED). */
  persistedOnly: boolean;
  /** The rolling cost budget per client (src/graphql/budget/); none when budgets are off. */
  budgets?: CostAdmission;
}

/** graphql-http's request parameters, with the document they name read already. */
interface GatewayRequestParams extends RequestParams {
  requested: RequestedDocument;
}

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;
const JSON_MEDIA_TYPE = 'application/json';

/** Where authenticateBearer leaves the verified caller for the GraphQL handler. */
const PRINCIPAL = Symbol('graphql.principal');

interface AuthenticatedRequest extends PlainRequest, CostCarrier {
  [PRINCIPAL]?: Principal;
}

/**
 * `POST /graphql`: bearer authentication first (so an unauthenticated caller never reaches the
 * parser), then a size-limited JSON body, then graphql-http over the schema. Documents, sent as
 * text or named by the hash of a persisted one, come from a cache of parsed and validated
 * documents (src/graphql/persisted/); the cost limit, which depends on the variables, is
 * checked for every request that has any. A query sent repeatedly runs as compiled by graphql-jit,
 * to the answer graphql-js gives (src/graphql/compiled-execution.ts).
 */
export function graphqlRouter<Context extends GatewayContext>(
  options: GatewayOptions<Context>,
): Router {
  return graphqlGateway(options).router;
}

/** graphqlRouter, and its POST /graphql on its own for the fast listener. */
export function graphqlGateway<Context extends GatewayContext>(
  options: GatewayOptions<Context>,
): { router: Router; endpoint: PostEndpoint } {
  const { limits } = options;
  const schema = countAnswers(options.schema, (context) => (context as GatewayContext).answer);
  const documents = new RequestedDocuments(
    new DocumentCache(schema, limits),
    options.persisted,
    options.persistedOnly,
    options.logger,
  );
  const costs = new CostLimit(schema, limits.maxCost);
  const formatError = countingGraphQLErrors(formatGraphQLError);
  const answerLimits = { maxNodes: limits.maxResponseNodes, maxBytes: limits.maxResponseBytes };
  const compiled = limits.compiledQueries
    ? new CompiledExecutor(schema, limits.compileAfterExecutions, limits.compiledQueriesMax)
    : undefined;

  const handleRequest = createHandler<AuthenticatedRequest, GatewayContext, Context>({
    schema,
    ...(compiled && { execute: compiled.execute }),
    parseRequestParams: (req) => readRequestParams(req.raw.body),
    // Returning arguments here replaces graphql-http's own parse and validate steps.
    onSubscribe: async (req, params) => {
      const prepared = await documents.prepare((params as GatewayRequestParams).requested);
      if ('errors' in prepared) return prepared.errors;
      const operation = selectOperation(prepared.document, params.operationName);
      if (operation instanceof GraphQLError) return [operation];
      noteGraphQLOperation(req.raw, operation);
      const tooLarge = refusesLargeBody(
        req.raw,
        operation,
        options.largeBodies,
        options.bodyLimitBytes,
      );
      if (tooLarge) return [new GraphQLError(tooLarge, { extensions: { code: 'BAD_USER_INPUT' } })];
      const variables = getVariableValues(
        schema,
        operation.variableDefinitions ?? [],
        params.variables ?? {},
      );
      if (variables.errors) return variables.errors.map(asBadUserInput);
      const estimate = costs.estimate(prepared.document, operation, variables.coerced);
      if ('error' in estimate) return [estimate.error];
      const args = {
        schema,
        document: prepared.document,
        operationName: params.operationName ?? undefined,
        variableValues: params.variables ?? undefined,
        contextValue: options.createContext(req.context),
      };
      const { principal } = req.context;
      const refused = admitRequest(options.budgets, req.raw, principal, operation, estimate.cost);
      if (refused === undefined) return args;
      return refused instanceof Promise ? refused.then((known) => known ?? args) : refused;
    },
    onOperation: (req, args, result) => {
      // Logged here, under the request's id; formatError masks them in the answer.
      for (const error of 'errors' in result ? (result.errors ?? []) : []) {
        const cause = unexpectedCause(error);
        if (cause) {
          req.raw.log.error(
            { err: cause, path: error.path },
            'unexpected error in GraphQL execution',
          );
        }
      }
      // An answer that went past its budget was cut short; it is dropped whole for one error.
      const { answer } = args.contextValue as GatewayContext;
      const refusal = answer.refusal();
      if (refusal) {
        const operation = getOperationAST(args.document, args.operationName);
        const errors = [operation?.operation === 'mutation' ? afterMutation(refusal) : refusal];
        return withCost({ data: null, errors }, req.raw, answer.actualCost);
      }
      // A busy database (retried already, nothing written by the failed field) is no 200: the
      // result, with what did run, goes out as a 503 with Retry-After.
      if (!('errors' in result) && !('data' in result)) return result;
      const costed = withCost(result, req.raw, answer.actualCost);
      const busy = costed.errors?.find(isTemporarilyUnavailable);
      if (!busy) return costed;
      const cause = busy.originalError as TemporarilyUnavailable;
      req.raw.log.warn({ err: cause }, 'database busy after retries: answered 503');
      const body = { ...costed, errors: costed.errors!.map(formatError) };
      return [
        JSON.stringify(body),
        {
          status: 503,
          statusText: 'Service Unavailable',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'retry-after': String(cause.retryAfterSeconds),
          },
        },
      ];
    },
    formatError,
  });
  const handle = timingGraphQLRequests(handleRequest);

  const endpoint: PostEndpoint = {
    path: '/graphql',
    plain: true,
    handlers: [
      authenticateBearer(options.authenticate),
      requireJsonBody,
      // body-parser's parsers take node:http's request as it is.
      graphqlJsonBody(options.bodyLimitBytes, options.largeBodies, options.logger, (res) => {
        res.setHeader('Retry-After', '1');
        sendGraphQLError(
          res,
          503,
          'The service is busy with other large requests; try again in a moment',
          'TEMPORARILY_UNAVAILABLE',
        );
      }),
      async (req: AuthenticatedRequest, res: ServerResponse, next: PlainNext) => {
        try {
          const [body, init] = await handle({
            method: req.method!,
            url: req.url!,
            headers: req.headers,
            body: null,
            raw: req,
            context: {
              requestId: req.id,
              logger: req.log,
              principal: req[PRINCIPAL]!,
              answer: new AnswerBudget(answerLimits),
            },
          });
          setRateLimitHeaders(res, req);
          res.writeHead(init.status, init.statusText, init.headers).end(body ?? undefined);
        } catch (error) {
          // A failure of the gateway itself, not of the request: logged and masked as a 500.
          next(error);
        }
      },
    ],
    errorHandlers: [graphqlBodyErrors],
  };
  const router = Router();
  mountPost(router, endpoint);
  router.all('/graphql', (_req, res: ServerResponse) => {
    res.setHeader('Allow', 'POST');
    sendGraphQLError(res, 405, 'Use POST for GraphQL requests', 'BAD_USER_INPUT');
  });
  mountErrorHandlers(router, endpoint);
  return { router, endpoint };
}

function authenticateBearer(authenticate: BearerAuthenticator) {
  return async (req: AuthenticatedRequest, res: ServerResponse, next: PlainNext): Promise<void> => {
    const header = req.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="graphql"');
      sendGraphQLError(
        res,
        401,
        'Missing bearer access token in the Authorization header',
        'UNAUTHENTICATED',
      );
      return;
    }
    const principal = await authenticate(token);
    if (!principal || isRefusal(principal)) {
      // RFC 6750's error_description, in its character set (the verifier quotes claims so).
      const description = principal?.description ?? 'The access token is not valid';
      req.log.info(
        { reason: principal?.refused ?? 'invalid_token' },
        `bearer token refused: ${description}`,
      );
      res.setHeader(
        'WWW-Authenticate',
        `Bearer realm="graphql", error="invalid_token", error_description="${description}"`,
      );
      sendGraphQLError(res, 401, description, 'UNAUTHENTICATED');
      return;
    }
    req[PRINCIPAL] = principal;
    next();
  };
}

function requireJsonBody(req: PlainRequest, res: ServerResponse, next: PlainNext): void {
  if (typeis(req, [JSON_MEDIA_TYPE])) {
    next();
    return;
  }
  const given = req.headers['content-type'] ?? 'no Content-Type';
  sendGraphQLError(
    res,
    415,
    `Content-Type must be application/json, got ${given}`,
    'BAD_USER_INPUT',
  );
}

/**
 * The GraphQL request in a body already parsed by express.json. Malformed parameters are answered
 * here with a 400 in GraphQL's error shape; graphql-http would throw plain errors instead, which
 * the error formatter masks as internal errors.
 */
function readRequestParams(body: unknown): GatewayRequestParams | GraphQLHttpResponse {
  if (!isJsonObject(body)) {
    return requestError('The request body must be a JSON object with a "query" string');
  }
  const { variables, operationName, extensions } = body;
  if (variables != null && !isJsonObject(variables)) {
    return requestError('"variables" must be a JSON object or null');
  }
  if (operationName != null && typeof operationName !== 'string') {
    return requestError('"operationName" must be a string or null');
  }
  if (extensions != null && !isJsonObject(extensions)) {
    return requestError('"extensions" must be a JSON object or null');
  }
  const requested = readRequestedDocument({ ...body, extensions });
  if ('problem' in requested) return requestError(requested.problem);
  // graphql-http reads `query` only when onSubscribe leaves parsing to it, which it never does.
  const query = requested.kind === 'text' ? requested.query : '';
  return { query, variables, operationName, extensions, requested };
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requestError(message: string): GraphQLHttpResponse {
  recordGraphQLError('BAD_USER_INPUT');
  return [
    errorResponseBody(message, 'BAD_USER_INPUT'),
    {
      status: 400,
      statusText: 'Bad Request',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    },
  ];
}

/** The operation to run, or the error graphql's executor would give when there is none. */
function selectOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode | GraphQLError {
  const operation = getOperationAST(document, operationName);
  if (operation) return operation;
  return new GraphQLError(
    operationName
      ? `Unknown operation named "${operationName}".`
      : 'Must provide operation name if query contains multiple operations.',
    { extensions: { code: 'BAD_USER_INPUT' } },
  );
}

/** A mutation's change is made before its answer is counted; say so, so it is not sent again. */
function afterMutation(refusal: GraphQLError): GraphQLError {
  return new GraphQLError(
    `${refusal.message} Changes made before the limit was reached stay made: read the events ` +
      'again rather than sending the mutation again.',
    { extensions: refusal.extensions },
  );
}

/** Variable values are the caller's input; graphql leaves most coercion errors without a code. */
function asBadUserInput(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, {
    source: error.source,
    positions: error.positions,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: 'BAD_USER_INPUT' },
  });
}

/**
 * Body-parser failures on /graphql (an unreadable body is GRAPHQL_PARSE_FAILED) and a database
 * too busy to authenticate the caller, answered in GraphQL's response shape.
 */
function graphqlBodyErrors(
  error: unknown,
  req: PlainRequest,
  res: ServerResponse,
  next: PlainNext,
): void {
  const known = res.headersSent ? undefined : recognise(error, req, res);
  if (!known) {
    next(error);
    return;
  }
  const code: ErrorCode =
    known.status === 503
      ? 'TEMPORARILY_UNAVAILABLE'
      : known.status === 400
        ? 'GRAPHQL_PARSE_FAILED'
        : 'BAD_USER_INPUT';
  sendGraphQLError(res, known.status, known.description, code);
}

function sendGraphQLError(
  res: ServerResponse,
  status: number,
  message: string,
  code: ErrorCode,
): void {
  recordGraphQLError(code);
  sendJsonText(res, status, errorResponseBody(message, code));
}
