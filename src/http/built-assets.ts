import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PUBLIC_DIR } from './views.js';

/**
 * The address of a browser asset that `npm run build` makes (scripts/build-assets.ts writes
 * them to public/built/, which /assets serves), or null while it has not been built: pages
 * that need one then say how to build it instead of loading a script that is not there.
 */
export function builtAssetHref(name: string): string | null {
  return existsSync(join(PUBLIC_DIR, 'built', name)) ? `/assets/built/${name}` : null;
}
