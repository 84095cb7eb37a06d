import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shape of the data layer (DESIGN §7), checked on the source text of src/:
 * - only the dialects (src/db/dialects/) name a database engine or use its dialect of SQL;
 * - only stores (`*-store.ts`), src/db and the migrations import knex or build queries;
 * - only src/db/transactions.ts begins transactions, and every store is a `Store`.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

interface SourceFile {
  path: string;
  /** The text without comments, so that prose may name engines and SQL freely. */
  code: string;
}

const sources: SourceFile[] = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.ts'))
  .map((file) => {
    const path = relative(ROOT, join(SRC, file)).split('\\').join('/');
    return { path, code: withoutComments(readFileSync(join(SRC, file), 'utf8')) };
  });

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** `file:line: text` of every line of the files that matches one of the patterns. */
function offences(files: SourceFile[], patterns: RegExp[]): string[] {
  return files.flatMap(({ path, code }) =>
    code
      .split('\n')
      .flatMap((line, index) =>
        patterns.some((pattern) => pattern.test(line))
          ? [`${path}:${index + 1}: ${line.trim()}`]
          : [],
      ),
  );
}

const isDialect = (path: string) => path.startsWith('src/db/dialects/');
const isDataLayer = (path: string) => path.startsWith('src/db/') || path.endsWith('-store.ts');

describe('data layer boundaries', () => {
  it('finds the source files', () => {
    assert.ok(sources.length > 100, `only ${sources.length} files under src/`);
    assert.ok(sources.some((file) => file.path === 'src/db/dialects/postgres.ts'));
  });

  it('names a database engine only in src/db/dialects/', () => {
    const engineSpecific = [
      /['"`](pg|postgres|postgresql|sqlite|sqlite3)['"`]/,
      /\bisPostgres\b|\bisSqlite\b/i,
      /client\.config\.client|\.client\.dialect\b|driverName/,
      /\bSQLITE_[A-Z]/,
      /\bPRAGMA\b/,
      /\block table\b/i,
      // Not iCalendar's BEGIN:VEVENT lines (src/calendar-mail/itip-file.ts): SQL has no colon there.
      /['"`](BEGIN|COMMIT|ROLLBACK|SAVEPOINT)\b(?!:)/i,
      // knex's locking clauses; a store asks for locks with its own this.forUpdate(query).
      /(?<!this|dialect)\.(forUpdate|forShare|forNoKeyUpdate|forKeyShare|skipLocked|noWait)\s*\(/,
      /isolationLevel|readOnly\s*:/,
      /['"`](23|40)[0-9A-Z]{3}['"`]/,
      /from ['"](pg|sqlite3|better-sqlite3|mysql2?)['"]|knex\/lib\/dialects/,
    ];
    const outside = sources.filter(
      // config.ts turns the environment (SQLITE_PATH, DATABASE_URL) into a DatabaseConfig.
      // The room protocol's WebRTC session descriptions have a type 'rollback' that is not SQL.
      (file) =>
        !isDialect(file.path) &&
        file.path !== 'src/config.ts' &&
        !file.path.startsWith('src/room/protocol/'),
    );
    assert.deepEqual(offences(outside, engineSpecific), []);
  });

  it('builds queries and imports knex only in stores, src/db and migrations', () => {
    const queryBuilding = [
      /from ['"]knex(\/[^'"]*)?['"]/,
      /\b(db|trx|tx|knex|executor|database)\s*(<[^>]*>)?\s*\(\s*['"`]/,
      /\.(where[A-Za-z]*|orWhere[A-Za-z]*|andWhere[A-Za-z]*|onConflict|returning|orderBy|groupBy|leftJoin|innerJoin|first|raw|increment|decrement|truncate|pluck|schema)\s*[<(]/,
    ];
    const outside = sources.filter((file) => !isDataLayer(file.path));
    assert.deepEqual(offences(outside, queryBuilding), []);
  });

  it('begins transactions only in src/db/transactions.ts', () => {
    const others = sources.filter((file) => file.path !== 'src/db/transactions.ts');
    assert.deepEqual(offences(others, [/\.transaction\s*[<(]/]), []);
  });

  it('makes every store a Store, so that all share one transaction idiom', () => {
    const stores = sources.filter((file) => file.path.endsWith('-store.ts'));
    assert.ok(stores.length >= 10, `only ${stores.length} stores`);
    const classes = stores.flatMap(({ path, code }) =>
      [...code.matchAll(/export class (\w+)(?: extends (\w+))?/g)].map(([, name, base]) => ({
        path,
        name: name!,
        base,
      })),
    );
    // A store may extend another store: still a Store.
    const isStore = (name: string | undefined, seen = new Set<string>()): boolean => {
      if (name === 'Store') return true;
      const found = classes.find((entry) => entry.name === name);
      if (!found || seen.has(found.name)) return false;
      return isStore(found.base, seen.add(found.name));
    };
    const notStores = classes
      .filter((entry) => !isStore(entry.base))
      .map(({ path, name }) => `${path}: ${name}`);
    assert.deepEqual(notStores, []);
  });
});
