import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The SDL modules under schema/ at the repository root: `common.graphql` (the root types every
 * API extends, the custom scalars, paging and sorting) and one `<api>.graphql` per API behind
 * the gateway. codegen.ts merges the same files (`schema/*.graphql`).
 */
export const COMMON_SDL_MODULE = 'common';

const SDL_EXTENSION = '.graphql';

/** Where schema/ is, seen from src/graphql/ (tsx) and from dist/src/graphql/ (build). */
const SCHEMA_DIRECTORY_CANDIDATES = [
  new URL('../../schema/', import.meta.url),
  new URL('../../../schema/', import.meta.url),
];

let directory: URL | undefined;
const texts = new Map<string, string>();

function schemaDirectory(): URL {
  directory ??= SCHEMA_DIRECTORY_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!directory) {
    const tried = SCHEMA_DIRECTORY_CANDIDATES.map((candidate) => fileURLToPath(candidate));
    throw new Error(`schema/ not found; looked at ${tried.join(', ')}`);
  }
  return directory;
}

/** The SDL modules found under schema/: common first, then the APIs' by name. */
export function sdlModuleNames(): string[] {
  const names = readdirSync(schemaDirectory())
    .filter((file) => file.endsWith(SDL_EXTENSION))
    .map((file) => file.slice(0, -SDL_EXTENSION.length))
    .filter((name) => name !== COMMON_SDL_MODULE)
    .sort();
  return [COMMON_SDL_MODULE, ...names];
}

/** Where one SDL module's file is, for messages. */
export function sdlModulePath(name: string): string {
  return `schema/${name}${SDL_EXTENSION}`;
}

/** The text of one SDL module, read once. */
export function readSdlModule(name: string): string {
  let text = texts.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`${name}${SDL_EXTENSION}`, schemaDirectory()), 'utf8');
    texts.set(name, text);
  }
  return text;
}

/**
 * The merged SDL of the given modules (by default every module under schema/, as codegen reads
 * them): one document in which each API extends the common root types.
 */
export function loadTypeDefs(modules: readonly string[] = sdlModuleNames()): string {
  return modules.map(readSdlModule).join('\n');
}
