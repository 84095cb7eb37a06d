import type { ServerResponse } from 'node:http';
import express, { Router } from 'express';
import type { ValidateFunction } from 'ajv';
import typeis from 'type-is';
import {
  validateClientId,
  validateIntrospectRequest,
  validateRevokeRequest,
} from '../../../generated/validators.cjs';
import {
  mountPost,
  type PlainHandler,
  type PlainNext,
  type PlainRequest,
  type PostEndpoint,
} from '../../http/endpoint.js';
import { sendError } from '../../http/errors.js';
import { sendJson } from '../../http/json-answer.js';
import { validationMessage } from '../../http/openapi-validation.js';
import { recordTokenIssued } from '../../observability/instruments.js';
import type { RateLimiter } from '../../security/rate-limiter.js';
import type { ClientAuthenticator } from '../clients/client-authenticator.js';
import { readClientCredentials } from '../clients/client-credentials.js';
import type { GrantRegistry } from '../grants/registry.js';
import type { TokenIssuer } from '../grants/token-issuer.js';
import { OAuthError } from '../oauth-error.js';
import { noStore, oauthErrorHandler } from '../oauth-responses.js';
import type { TokenIntrospection } from './introspection.js';
import type { TokenRevocation } from './revocation.js';

export interface TokenRouterDependencies {
  /** The grant types the token endpoint accepts. */
  grants: GrantRegistry;
  /** What the grants share, handed to each grant's handler. */
  issuer: TokenIssuer;
  revocation: TokenRevocation;
  introspection: TokenIntrospection;
  clients: ClientAuthenticator;
  limiter: RateLimiter;
  bodyLimitBytes: number;
}

type FormBody = Record<string, unknown>;

/** POST /oauth/v2/tokens, /oauth/v2/revoke and /oauth/v2/introspect on the API host. */
export function tokenRouter(endpoints: readonly PostEndpoint[]): Router {
  const router = Router();
  for (const endpoint of endpoints) mountPost(router, endpoint);
  router.use(
    endpoints.map((endpoint) => endpoint.path),
    oauthErrorHandler,
  );
  return router;
}

/**
 * The token host's three POST endpoints, written for node:http's request and response: mounted
 * by tokenRouter, and served by the fast listener too (their errors are answered by
 * oauthErrorHandler either way).
 */
export function tokenEndpoints(deps: TokenRouterDependencies): PostEndpoint[] {
  return [tokenEndpoint(deps), revokeEndpoint(deps), introspectEndpoint(deps)];
}

function clientAuthenticator(deps: TokenRouterDependencies) {
  return async (req: PlainRequest, fromCache: boolean | 'current' = false) =>
    (
      await deps.clients.authenticate(
        readClientCredentials(req.headers.authorization, formOf(req)),
        { fromCache },
      )
    ).app;
}

function revokeEndpoint(deps: TokenRouterDependencies): PostEndpoint {
  const authenticate = clientAuthenticator(deps);
  return {
    path: '/oauth/v2/revoke',
    plain: true,
    handlers: [
      ...formOrJsonBody(deps.bodyLimitBytes),
      rateLimited(deps.limiter),
      async (req: PlainRequest, res: ServerResponse) => {
        const form = validated(validateRevokeRequest, formOf(req));
        const client = await authenticate(req);
        await deps.revocation.revoke(client, form.token, form.token_type_hint, req.id);
        noStore(res);
        res.statusCode = 200;
        res.end();
      },
    ],
    errorHandlers: [oauthErrorHandler],
  };
}

function introspectEndpoint(deps: TokenRouterDependencies): PostEndpoint {
  const authenticate = clientAuthenticator(deps);
  return {
    path: '/oauth/v2/introspect',
    plain: true,
    handlers: [
      ...formOrJsonBody(deps.bodyLimitBytes),
      rateLimited(deps.limiter),
      async (req: PlainRequest, res: ServerResponse) => {
        const form = validated(validateIntrospectRequest, formOf(req));
        // Read-only: no commit to check a cached app at, so the cache answers only when current.
        const client = await authenticate(req, 'current');
        if (client.client_type === 'public') {
          throw new OAuthError(
            'invalid_client',
            'introspection is available to confidential clients only',
          );
        }
        noStore(res);
        sendJson(
          res,
          200,
          await deps.introspection.introspect(client, form.token, form.token_type_hint),
        );
      },
    ],
    errorHandlers: [oauthErrorHandler],
  };
}

function tokenEndpoint(deps: TokenRouterDependencies): PostEndpoint {
  const { grants, issuer } = deps;
  return {
    path: '/oauth/v2/tokens',
    plain: true,
    handlers: [
      ...formOrJsonBody(deps.bodyLimitBytes),
      rateLimited(deps.limiter),
      async (req: PlainRequest, res: ServerResponse) => {
        const form = formOf(req);
        const grantType = form.grant_type;
        if (grantType === undefined)
          throw new OAuthError('invalid_request', 'grant_type is required');
        if (typeof grantType !== 'string') {
          const problem = Array.isArray(grantType) ? 'must be given only once' : 'must be a string';
          throw new OAuthError('invalid_request', `grant_type ${problem}`);
        }
        const grant = grants.find(grantType);
        if (!grant) throw grants.unsupported(grantType);
        // The grant validates its form first, so a malformed request costs no database work.
        const request = validated(grant.validate, form);
        const issued = await issuer
          .forRequest(req.id)
          .issue(grant, readClientCredentials(req.headers.authorization, form), request);
        recordTokenIssued(grant.name);
        sendJson(noStore(res), 200, { ...issued, convid: req.id });
      },
    ],
    errorHandlers: [oauthErrorHandler],
  };
}

/** body-parser's parsers take node:http's request as they are. */
function formOrJsonBody(limit: number): PlainHandler[] {
  return [
    requireFormOrJson,
    express.urlencoded({ extended: false, limit }) as PlainHandler,
    express.json({ limit }) as PlainHandler,
  ];
}

function formOf(req: PlainRequest): FormBody {
  return (req.body ?? {}) as FormBody;
}

function validated<T>(validate: ValidateFunction<T>, form: FormBody): T {
  if (!validate(form))
    throw new OAuthError('invalid_request', validationMessage(validate.errors, form));
  return form;
}

function requireFormOrJson(req: PlainRequest, res: ServerResponse, next: PlainNext): void {
  if (typeis(req, ['application/x-www-form-urlencoded', 'application/json'])) {
    next();
    return;
  }
  noStore(res);
  sendError(
    req,
    res,
    415,
    'unsupported_media_type',
    'Content-Type must be application/x-www-form-urlencoded (or application/json)',
  );
}

/**
 * Limits requests per client address and claimed client id, across all processes. The address
 * is part of the key so that nobody can use up another client's budget by sending requests in
 * its name (client secrets are 256-bit random strings, so guessing them is not the threat).
 */
function rateLimited(limiter: RateLimiter) {
  return async (req: PlainRequest, res: ServerResponse, next: PlainNext): Promise<void> => {
    const decision = await limiter.consume(`${req.ip}|${claimedClientId(req) ?? '-'}`);
    if (decision.allowed) {
      next();
      return;
    }
    noStore(res).setHeader('Retry-After', String(decision.retryAfterSeconds));
    sendError(
      req,
      res,
      429,
      'too_many_requests',
      `Too many requests; retry in ${decision.retryAfterSeconds} seconds`,
    );
  };
}

/**
 * The client id a request claims to be, before any authentication. Only a well-formed one counts
 * (the handler refuses the others with invalid_request), so no control character or overlong
 * value reaches the limiter's key.
 */
function claimedClientId(req: PlainRequest): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const id = decoded.slice(0, Math.max(0, decoded.indexOf(':')));
    if (id) return validateClientId(id) ? id : undefined;
  }
  const id = formOf(req).client_id;
  return validateClientId(id) ? id : undefined;
}
