/**
 * Builds the browser assets the service serves from its own origin (no CDN) into public/built/
 * (git-ignored): the API explorer (GraphiQL, React and our examples, bundled by esbuild) and
 * Redoc's standalone bundle for the API reference at /docs. `npm run build` runs it.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
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
  copyFileSync(redoc, `${BUILT_DIR}redoc.standalone.js`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildAssets();
  console.log(`built the explorer and the API reference's assets into ${BUILT_DIR}`);
}
