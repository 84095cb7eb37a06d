import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { REPOSITORY, readmeSection } from './readme.js';

/** How the README's Scripts table names each script: `npm start`, `npm run build`, … */
function listedScripts(): string[] {
  const rows = readmeSection('Scripts').matchAll(/^\| `npm (?:run )?([\w:-]+)[^`]*` /gm);
  return [...rows].map((row) => row[1]!);
}

describe('README: the Scripts table', () => {
  const scripts = Object.keys(
    JSON.parse(readFileSync(`${REPOSITORY}/package.json`, 'utf8')).scripts as object,
  );

  it('lists every script of package.json (lifecycle hooks under the script they run before)', () => {
    const hooks = scripts.filter(
      (name) => name.startsWith('pre') && scripts.includes(name.slice(3)),
    );
    assert.deepEqual(
      [...listedScripts()].sort(),
      scripts.filter((name) => !hooks.includes(name)).sort(),
    );
  });
});
