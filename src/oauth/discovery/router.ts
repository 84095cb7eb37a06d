import { Router, type Request, type Response } from 'express';
import type { Config } from '../../config.js';
import type { SigningKeys } from '../signing-keys/signing-keys.js';
import { serverMetadata } from './server-metadata.js';

/** Discovery documents and the JWKS on the authorization server. */
export function discoveryRouter(config: Config, keys: SigningKeys): Router {
  const router = Router();
  const metadata = serverMetadata(config);
  const sendMetadata = (_req: Request, res: Response) => {
    res.set('Cache-Control', 'public, max-age=300').json(metadata);
  };
  router.get('/.well-known/openid-configuration', sendMetadata);
  router.get('/.well-known/oauth-authorization-server', sendMetadata);
  router.get('/.well-known/keys', async (_req, res) => {
    // Short: clients refetch after a rotation, and retired keys must drop out soon.
    res.set('Cache-Control', 'public, max-age=60').json(await keys.jwks());
  });
  return router;
}
