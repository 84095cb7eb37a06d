import type { NextFunction, Request, Response } from 'express';
import type { Principal } from './principal.js';
import type { AccessTokenVerifier } from './tokens/access-token-verifier.js';
import { isRefusal, type BearerRefusal } from './tokens/bearer-refusal.js';

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;
const REALM = 'realm="hiring-partner-api"';

declare module 'express-serve-static-core' {
  interface Locals {
    principal?: Principal;
  }
}

/**
 * RFC 6750 bearer authentication for REST endpoints: the verified principal goes to
 * `res.locals.principal`; a missing token gets a bare challenge, a refused one
 * `error="invalid_token"` with the reason as `error_description` (in the challenge and the
 * body, and in the log), both with status 401.
 */
export function requireBearer(verifier: AccessTokenVerifier) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const header = req.get('authorization');
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) {
      res.set('WWW-Authenticate', `Bearer ${REALM}`);
      res
        .status(401)
        .json({ error: 'invalid_request', error_description: 'A bearer access token is required' });
      return;
    }
    const principal = await verifier.authenticate(token);
    if (isRefusal(principal)) {
      logRefusal(req, principal);
      res.set('WWW-Authenticate', invalidTokenChallenge(REALM, principal));
      res.status(401).json({ error: 'invalid_token', error_description: principal.description });
      return;
    }
    res.locals.principal = principal;
    next();
  };
}

/** A 403 for a valid token of the wrong kind or without the scope the endpoint needs. */
export function insufficientScope(res: Response, description: string, scope?: string): void {
  res.set(
    'WWW-Authenticate',
    `Bearer ${REALM}, error="insufficient_scope"${scope ? `, scope="${scope}"` : ''}, error_description="${description}"`,
  );
  res.status(403).json({ error: 'insufficient_scope', error_description: description });
}

/** RFC 6750's challenge for a refused token; the description is already in its character set. */
export function invalidTokenChallenge(realm: string, refusal: BearerRefusal): string {
  return `Bearer ${realm}, error="invalid_token", error_description="${refusal.description}"`;
}

/** One line per refused token: the reason, never the token. */
export function logRefusal(req: Request, refusal: BearerRefusal): void {
  req.log.info({ reason: refusal.refused }, `bearer token refused: ${refusal.description}`);
}
