import { createHash } from 'node:crypto';
import { Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import { printSdlWithDirectives } from './printed-sdl.js';

export const SCHEMA_DOWNLOAD_PATH = '/schema.graphql';

/**
 * `GET /schema.graphql`: the merged SDL the gateway serves (every API's types and operations with
 * their descriptions and the cost directives, in one document without extensions), public like
 * /docs. It changes only with a deployment, so it is cached briefly and revalidated by its ETag.
 */
export function schemaDownloadRouter(schema: GraphQLSchema): Router {
  const sdl = printSdlWithDirectives(schema);
  const etag = `"${createHash('sha256').update(sdl).digest('base64url')}"`;
  const router = Router();
  router.get(SCHEMA_DOWNLOAD_PATH, (req, res) => {
    res.set({
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      ETag: etag,
    });
    // Not req.fresh: it ignores If-None-Match when the request says `Cache-Control: no-cache`,
    // which fetch() adds to every conditional request; an origin server compares regardless.
    if (matches(req.get('If-None-Match'), etag)) {
      res.status(304).end();
      return;
    }
    res.send(sdl);
  });
  return router;
}

/** Whether an If-None-Match header names the given entity tag (weak comparison, RFC 9110). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
