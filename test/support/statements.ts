import type { Database } from '../../src/db/database.js';

/** What `work` returned, and the SQL texts sent to `db` while it ran, in order. */
export async function sqlDuring<T>(
  db: Database,
  work: () => Promise<T>,
): Promise<{ result: T; sql: string[] }> {
  const sql: string[] = [];
  const listener = (query: { sql: string }) => sql.push(query.sql);
  db.on('query', listener);
  try {
    return { result: await work(), sql };
  } finally {
    db.off('query', listener);
  }
}

/** How many of `sql` match `pattern`. */
export function counted(sql: readonly string[], pattern: RegExp): number {
  return sql.filter((text) => pattern.test(text)).length;
}
