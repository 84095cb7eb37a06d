import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The compiled entry point the benchmark runs, as `npm start` does. */
export const SERVICE_ENTRY = 'dist/src/main.js';

/** Compiled folders and the source folders they come from (tsconfig.build.json). */
const COMPILED_FOLDERS = ['src', 'generated'];

/**
 * Makes sure dist/ reflects the current sources: when a source file under src/ or generated/ has
 * no compiled file, or one older than itself, runs `npm run build` first (and says so).
 */
export function ensureBuilt(repository: string): void {
  const stale = staleSource(repository);
  if (!stale) return;
  console.error(`dist/ is out of date (${stale}): running npm run build`);
  const build = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: repository,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status})`);
}

/** The first source file whose compiled file is missing or older, if any. */
function staleSource(repository: string): string | undefined {
  for (const folder of COMPILED_FOLDERS) {
    const files = readdirSync(join(repository, folder), { recursive: true }) as string[];
    for (const file of files) {
      const output = compiledName(file);
      if (!output) continue;
      const source = statSync(join(repository, folder, file));
      const compiled = join(repository, 'dist', folder, output);
      if (!existsSync(compiled) || statSync(compiled).mtimeMs < source.mtimeMs) {
        return `${folder}/${file}`;
      }
    }
  }
  return undefined;
}

function compiledName(file: string): string | undefined {
  if (file.endsWith('.d.ts')) return undefined;
  if (file.endsWith('.ts')) return `${file.slice(0, -3)}.js`;
  if (file.endsWith('.cjs') || file.endsWith('.js')) return file;
  return undefined;
}
