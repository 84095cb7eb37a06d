import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, type RequestHandler } from 'express';
import { builtAssetHref } from './built-assets.js';
import { PUBLIC_DIR, pageTemplates } from './views.js';

export const API_REFERENCE_PATHS = {
  page: '/docs',
  spec: '/docs/openapi.yaml',
  graphql: '/docs/graphql',
} as const;

/** The GraphQL reference's page, rendered from schema/ by scripts/build-graphql-reference.ts. */
export const GRAPHQL_REFERENCE_FILE = join(PUBLIC_DIR, 'built', 'graphql-reference.html');

export interface ApiReferenceOptions {
  /** Where the gateway serves the merged SDL, named while the GraphQL reference is unbuilt. */
  schemaHref: string;
  /** The rendered GraphQL reference; GRAPHQL_REFERENCE_FILE unless a test says otherwise. */
  graphqlReferenceFile?: string;
}

const REDOC_BUNDLE = 'redoc.standalone.js';

/**
 * The references, public: `openapi.yaml` as written, a page rendering it with Redoc's standalone
 * bundle served from our own assets, and the GraphQL reference the build rendered from the SDL.
 */
export function apiReferenceRouter({
  schemaHref,
  graphqlReferenceFile = GRAPHQL_REFERENCE_FILE,
}: ApiReferenceOptions): Router {
  const spec = openApiFile();
  const router = Router();
  router.get(API_REFERENCE_PATHS.page, allowRedocSearchWorker, (_req, res) => {
    const redocSrc = builtAssetHref(REDOC_BUNDLE);
    res
      .status(redocSrc ? 200 : 503)
      .type('html')
      .send(
        pageTemplates.render('api-reference.njk', {
          redoc_src: redocSrc,
          spec_href: API_REFERENCE_PATHS.spec,
          graphql_href: API_REFERENCE_PATHS.graphql,
        }),
      );
  });
  router.get(API_REFERENCE_PATHS.spec, (_req, res) => {
    res.sendFile(spec, { headers: { 'Content-Type': 'application/yaml; charset=utf-8' } });
  });
  router.get(API_REFERENCE_PATHS.graphql, (_req, res) => {
    if (existsSync(graphqlReferenceFile)) {
      res.sendFile(graphqlReferenceFile, {
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
      });
      return;
    }
    res
      .status(503)
      .type('html')
      .send(pageTemplates.render('graphql-reference-unbuilt.njk', { schema_href: schemaHref }));
  });
  return router;
}

/**
 * Redoc runs its search index in a worker it starts from a blob: URL; the default policy
 * (worker-src falls back to script-src 'self') refuses that. This page alone may do it.
 */
const allowRedocSearchWorker: RequestHandler = (_req, res, next) => {
  const policy = res.getHeader('Content-Security-Policy');
  if (typeof policy === 'string') {
    res.setHeader('Content-Security-Policy', `${policy};worker-src 'self' blob:`);
  }
  next();
};

/** openapi.yaml at the repository root, seen from src/http (tsx) and dist/src/http (build). */
function openApiFile(): string {
  const candidates = ['../../openapi.yaml', '../../../openapi.yaml'].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  );
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`openapi.yaml not found; looked at ${candidates.join(', ')}`);
  return found;
}
