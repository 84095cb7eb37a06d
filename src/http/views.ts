import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import nunjucks from 'nunjucks';

/** `views/` and `public/` at the repository root, seen from src/… (tsx) and dist/src/… (build). */
export const VIEWS_DIR = repositoryDirectory('views');
export const PUBLIC_DIR = repositoryDirectory('public');

/**
 * The one template environment of every server-rendered page (authorization, lobby, console),
 * so each template is loaded and compiled once per process. Templates autoescape and refuse to
 * print an undefined value, so a missing variable is a bug found in tests, not a blank on a page.
 */
export const pageTemplates = new nunjucks.Environment(new nunjucks.FileSystemLoader(VIEWS_DIR), {
  autoescape: true,
  throwOnUndefined: true,
});

function repositoryDirectory(name: string): string {
  const candidates = [
    new URL(`../../${name}/`, import.meta.url),
    new URL(`../../../${name}/`, import.meta.url),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) {
    const tried = candidates.map((candidate) => fileURLToPath(candidate));
    throw new Error(`${name}/ not found; looked at ${tried.join(', ')}`);
  }
  return fileURLToPath(found);
}
