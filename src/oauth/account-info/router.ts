import { Router, type Response } from 'express';
import { insufficientScope, requireBearer } from '../bearer-middleware.js';
import { APPINFO_PATH } from '../discovery/partner-endpoints.js';
import type { AccessTokenVerifier } from '../tokens/access-token-verifier.js';
import type { AccountInfoResult, AccountInfoService } from './account-info-service.js';

/** GET /v2/api/userinfo and GET /v2/api/appinfo on the authorization server. */
export function accountInfoRouter(
  service: AccountInfoService,
  verifier: AccessTokenVerifier,
): Router {
  const router = Router();
  const bearer = requireBearer(verifier);
  router.get('/v2/api/userinfo', bearer, async (_req, res) => {
    reply(res, await service.userinfo(res.locals.principal!));
  });
  router.get(APPINFO_PATH, bearer, async (_req, res) => {
    reply(res, await service.appinfo(res.locals.principal!));
  });
  return router;
}

function reply<T>(res: Response, result: AccountInfoResult<T>): void {
  res.set('Cache-Control', 'no-store');
  if (result.ok) res.json(result.body);
  else insufficientScope(res, result.reason, result.scope);
}
