/**
 * Builds the browser assets the service serves from its own origin (no CDN) into public/built/
 * (git-ignored): the API explorer (GraphiQL, React and our examples, bundled by esbuild) and
 * Redoc's standalone bundle for the API reference at /docs. `npm run build` runs it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = new URL('../', import.meta.url);
export const BUILT_DIR = fileURLToPath(new URL('public/built/', ROOT));

export async function buildAssets(): Promise<void> {
  mkdirSync(BUILT_DIR, { recursive: true });
  await build({
    entryPoints: { explorer: fileURLToPath(new URL('client/explorer/main.js', ROOT)) },
    outdir: BUILT_DIR,
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    legalComments: 'linked',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const redoc = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  writeFileSync(`${BUILT_DIR}redoc.standalone.js`, withoutRemoteLogo(readFileSync(redoc, 'utf8')));
}

/** Redoc's attribution link shows a logo from Redocly's CDN. */
const REDOC_LOGO = '"https://cdn.redoc.ly/redoc/logo-mini.svg"';

/**
 * Redoc's one request to another origin: the attribution link's logo. Our policy would block it
 * (and report the violation); an empty source loads nothing, and Redoc hides an image that
 * fails, keeping the link's text.
 */
function withoutRemoteLogo(bundle: string): string {
  const parts = bundle.split(REDOC_LOGO);
  if (parts.length !== 2) {
    throw new Error(`expected Redoc's bundle to name ${REDOC_LOGO} once; check its new version`);
  }
  return parts.join('""');
}

// Run as a script (not imported by a test): build, and fail the build on any error.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildAssets().then(
    () => console.log(`built the explorer and the API reference's assets into ${BUILT_DIR}`),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
