/**
 * Builds the browser assets the service serves from its own origin (no CDN) into public/built/
 * (git-ignored): the API explorer (GraphiQL, React and our examples, bundled by esbuild), the
 * interview room's client (client/room, TypeScript with the room protocol's types) and
 * Redoc's standalone bundle for the API reference at /docs. `npm run build` (and so `npm start`)
 * runs it, and it rebuilds only when its inputs changed since the last build. Run as a script, it
 * also renders the GraphQL reference from schema/ (build-graphql-reference.ts).
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGraphQLReference } from './build-graphql-reference.js';

const REPOSITORY = fileURLToPath(new URL('../', import.meta.url));
export const BUILT_DIR = join(REPOSITORY, 'public/built/');

/** What the bundles are made from, relative to the repository; redoc's version is in the lock. */
const INPUTS = ['client', 'src/room/protocol', 'scripts/build-assets.ts', 'package-lock.json'];
const OUTPUTS = ['explorer.js', 'explorer.css', 'room.js', 'redoc.standalone.js'];
/**
 * The digest of the inputs the outputs were built from. A content digest, not modification
 * times: a checkout or a fresh clone gives every file a new time without changing a byte.
 */
const STAMP = '.inputs.sha256';

export type AssetBuildResult = 'built' | 'up to date';

/** Builds the assets unless the last build was made from exactly the current inputs. */
export async function buildAssetsIfChanged(repository = REPOSITORY): Promise<AssetBuildResult> {
  const builtDir = join(repository, 'public/built');
  const stamp = join(builtDir, STAMP);
  const digest = inputsDigest(repository);
  const outputsPresent = OUTPUTS.every((name) => existsSync(join(builtDir, name)));
  if (outputsPresent && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
    return 'up to date';
  }
  // No stamp while building: a build that fails halfway is redone next time.
  rmSync(stamp, { force: true });
  await buildAssets(repository);
  writeFileSync(stamp, digest);
  return 'built';
}

/** Builds the assets unconditionally. */
export async function buildAssets(repository = REPOSITORY): Promise<void> {
  const builtDir = join(repository, 'public/built');
  mkdirSync(builtDir, { recursive: true });
  // Loaded here so that an up-to-date check never pays for loading esbuild.
  const { build } = await import('esbuild');
  await build({
    entryPoints: {
      explorer: join(repository, 'client/explorer/main.js'),
      room: join(repository, 'client/room/main.ts'),
    },
    outdir: builtDir,
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    legalComments: 'linked',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const redoc = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  writeFileSync(
    join(builtDir, 'redoc.standalone.js'),
    withoutRemoteLogo(readFileSync(redoc, 'utf8')),
  );
}

function inputsDigest(repository: string): string {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of filesOf(join(repository, input))) {
      hash.update(`${relative(repository, file)}\0`);
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/** The file itself, or every file under a directory in a stable order; nothing if absent. */
function filesOf(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
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

// Run as a script (not imported by a test): build if needed, and fail the build on any error.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildAssetsIfChanged()
    .then((result) => {
      console.log(
        result === 'built'
          ? `built the explorer and the API reference's assets into ${BUILT_DIR}`
          : `browser assets up to date in ${BUILT_DIR} (their inputs have not changed)`,
      );
      const reference = buildGraphQLReference();
      console.log(
        reference === 'written'
          ? `rendered the GraphQL reference from schema/ into ${BUILT_DIR}`
          : `GraphQL reference in ${BUILT_DIR} unchanged`,
      );
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
