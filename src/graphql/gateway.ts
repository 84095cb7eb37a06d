import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/express';
import type { Logger } from 'pino';
import { classify } from '../http/errors.js';
import type { ContextFactory, GraphQLContext, Principal } from './context.js';
import { prepareDocument } from './document.js';
import { createErrorFormatter, errorResponseBody, type ErrorCode } from './errors.js';

/** Resolves a bearer token to its principal, or null when the token is not valid now. */
export type BearerAuthenticator = (token: string) => Promise<Principal | null>;

export interface GatewayOptions {
  schema: GraphQLSchema;
  authenticate: BearerAuthenticator;
  createContext: ContextFactory;
  bodyLimitBytes: number;
  logger: Logger;
}

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;
const JSON_MEDIA_TYPES = ['application/json', 'application/graphql-response+json'];

/**
 * `POST /graphql`: bearer authentication first (so an unauthenticated caller never reaches the
 * parser), then a size-limited JSON body, then graphql-http over the schema.
 */
export function graphqlRouter(options: GatewayOptions): Router {
  const router = Router();
  const handler = createHandler<GraphQLContext>({
    schema: options.schema,
    onSubscribe: (req, params) => {
      const prepared = prepareDocument(options.schema, params.query);
      if ('errors' in prepared) return prepared.errors;
      const raw = req.raw as Request;
      return {
        schema: options.schema,
        document: prepared.document,
        variableValues: params.variables ?? undefined,
        operationName: params.operationName ?? undefined,
        contextValue: options.createContext({
          requestId: raw.id,
          logger: raw.log,
          principal: raw.res!.locals.principal as Principal,
        }),
      };
    },
    formatError: createErrorFormatter(options.logger),
  });

  router.post(
    '/graphql',
    authenticateBearer(options.authenticate),
    requireJsonBody,
    express.json({ limit: options.bodyLimitBytes, type: JSON_MEDIA_TYPES }),
    handler,
  );
  router.all('/graphql', (_req, res) => {
    res.setHeader('Allow', 'POST');
    sendGraphQLError(res, 405, 'Use POST for GraphQL requests', 'BAD_USER_INPUT');
  });
  router.use('/graphql', graphqlBodyErrors);
  return router;
}

function authenticateBearer(authenticate: BearerAuthenticator) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const header = req.get('authorization');
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
    if (!principal) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="graphql", error="invalid_token"');
      sendGraphQLError(
        res,
        401,
        'The access token is invalid, expired or revoked',
        'UNAUTHENTICATED',
      );
      return;
    }
    res.locals.principal = principal;
    next();
  };
}

function requireJsonBody(req: Request, res: Response, next: NextFunction): void {
  if (req.is(JSON_MEDIA_TYPES)) {
    next();
    return;
  }
  const given = req.get('content-type') ?? 'no Content-Type';
  sendGraphQLError(
    res,
    415,
    `Content-Type must be application/json, got ${given}`,
    'BAD_USER_INPUT',
  );
}

/** Body-parser failures on /graphql answered in GraphQL's response shape. */
function graphqlBodyErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const known = classify(error as Parameters<typeof classify>[0]);
  if (!known || res.headersSent) {
    next(error);
    return;
  }
  const code: ErrorCode = known.status === 400 ? 'GRAPHQL_PARSE_FAILED' : 'BAD_USER_INPUT';
  sendGraphQLError(res, known.status, known.description, code);
}

function sendGraphQLError(res: Response, status: number, message: string, code: ErrorCode): void {
  res.status(status).type('application/json').send(errorResponseBody(message, code));
}
