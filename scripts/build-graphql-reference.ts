/**
 * Renders the GraphQL reference served at /docs/graphql from the SDL files under schema/ into
 * public/built/graphql-reference.html (git-ignored). `npm run build` runs it (through
 * build-assets.ts); so does a test that needs the page. It takes a fraction of a second, so it
 * always renders, and writes only when the page changed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSOLE_PATHS } from '../src/console/paths.js';
import { API_REFERENCE_PATHS, GRAPHQL_REFERENCE_FILE } from '../src/http/api-reference.js';
import { PUBLIC_DIR } from '../src/http/views.js';
import { GRAPHQL_PATH } from '../src/oauth/discovery/partner-endpoints.js';
import { SCHEMA_DOWNLOAD_PATH } from '../src/graphql/schema-download.js';
import { readSdlModule, sdlModuleNames, sdlModulePath } from '../src/graphql/schema.js';
import { renderReference } from './graphql-reference/render-reference.js';
import { buildCatalog, type SdlSource } from './graphql-reference/sdl-catalog.js';

/** The page's script and stylesheet, hand-written in public/ like the other pages' scripts. */
const SCRIPT = 'graphql-reference.js';
const STYLESHEET = 'graphql-reference.css';

/** Every SDL module under schema/, as the gateway and codegen find them. */
export function sdlSources(): SdlSource[] {
  return sdlModuleNames().map((name) => ({
    name,
    path: sdlModulePath(name),
    text: readSdlModule(name),
  }));
}

/** The reference page for the given SDL modules (by default every file under schema/). */
export function renderGraphQLReference(sources: readonly SdlSource[] = sdlSources()): string {
  return renderReference(buildCatalog(sources), {
    schema: SCHEMA_DOWNLOAD_PATH,
    restReference: API_REFERENCE_PATHS.page,
    explorer: CONSOLE_PATHS.explorer,
    endpoint: GRAPHQL_PATH,
    script: versioned(SCRIPT),
    stylesheet: versioned(STYLESHEET),
  });
}

/** Writes the page where /docs/graphql serves it from; says whether it changed. */
export function buildGraphQLReference(): 'written' | 'unchanged' {
  const page = renderGraphQLReference();
  const file = GRAPHQL_REFERENCE_FILE;
  if (existsSync(file) && readFileSync(file, 'utf8') === page) return 'unchanged';
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, page);
  return 'written';
}

/**
 * The asset's address under /assets with a digest of its content: /assets is cached for an
 * hour, and a new version must not meet an old script.
 */
function versioned(name: string): string {
  const digest = createHash('sha256')
    .update(readFileSync(join(PUBLIC_DIR, name)))
    .digest('base64url')
    .slice(0, 12);
  return `/assets/${name}?v=${digest}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const result = buildGraphQLReference();
    console.log(`GraphQL reference ${result} (${GRAPHQL_REFERENCE_FILE})`);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
