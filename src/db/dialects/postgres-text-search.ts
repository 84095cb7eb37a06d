import {
  commonConditions,
  identifier,
  plainWords,
  ROW_ALIAS,
  selectedColumns,
  type TextIndexSql,
  type TextSearch,
} from './text-search.js';

/** At most four text columns: tsvector weights A to D, the first column A. */
const WEIGHTS = ['A', 'B', 'C', 'D'] as const;
const CONFIGURATION = 'english';

/**
 * The text index on PostgreSQL: a stored generated `tsvector` column (english stemming, the
 * first text column weighted A, the next B, C, D) with a GIN index, and a B-tree on each cell
 * column with the key. A search with a place is one index scan per cell, each in descending key
 * order, merged (Merge Append) and cut at the limit: a page reads about as many rows as it keeps
 * divided by the share of the place's rows that match the words, whatever the table's size. A
 * search without a place walks the key index, or the GIN index when the planner expects few
 * matches.
 */
export const postgresTextIndex: TextIndexSql = {
  create(index) {
    const table = identifier(index.table);
    if (index.textColumns.length > WEIGHTS.length) throw new Error('at most four text columns');
    const weighted = index.textColumns
      .map(
        (column, position) =>
          `setweight(to_tsvector('${CONFIGURATION}', coalesce(${identifier(column)}, '')), ` +
          `'${WEIGHTS[position]}')`,
      )
      .join(' || ');
    return [
      `ALTER TABLE ${table} ADD COLUMN ${DOCUMENT} tsvector GENERATED ALWAYS AS (${weighted}) STORED`,
      `CREATE INDEX ${table}_text_idx ON ${table} USING gin (${DOCUMENT})`,
      ...index.cellColumns.flatMap((column) => [
        `CREATE INDEX ${table}_${identifier(column)}_idx ON ${table} ` +
          `(${column}, ${identifier(index.key)})`,
        // Postings crowd into big cities: the planner needs the crowded cells in its
        // most-common-values list to walk them in key order rather than read them whole.
        `ALTER TABLE ${table} ALTER COLUMN ${column} SET STATISTICS 1000`,
      ]),
    ];
  },

  drop(index) {
    const table = identifier(index.table);
    return [
      ...index.cellColumns.map((column) => `DROP INDEX ${table}_${identifier(column)}_idx`),
      `DROP INDEX ${table}_text_idx`,
      `ALTER TABLE ${table} DROP COLUMN ${DOCUMENT}`,
    ];
  },

  search(index, search) {
    const table = identifier(index.table);
    const key = identifier(index.key);
    const columns = selectedColumns(search);
    const where = commonConditions(search, `${ROW_ALIAS}.${key}`);
    const text = textQuery(search);
    if (text !== null) {
      where.sql.push(`${ROW_ALIAS}.${DOCUMENT} @@ to_tsquery('${CONFIGURATION}', ?)`);
      where.bindings.push(text);
    }
    const select = (extra: string[]) =>
      `SELECT ${columns} FROM ${table} AS ${ROW_ALIAS}` +
      (where.sql.length + extra.length ? ` WHERE ${[...extra, ...where.sql].join(' AND ')}` : '') +
      ` ORDER BY ${ROW_ALIAS}.${key} DESC LIMIT ?`;
    if (!search.cells) {
      return { sql: select([]), bindings: [...where.bindings, search.limit] };
    }
    const cellColumn = `${ROW_ALIAS}.${identifier(search.cells.column)}`;
    const parts = search.cells.ids.map(() => `(${select([`${cellColumn} = ?`])})`);
    return {
      sql:
        `SELECT * FROM (${parts.join(' UNION ALL ')}) AS found ` +
        `ORDER BY found.${key} DESC LIMIT ?`,
      bindings: [
        ...search.cells.ids.flatMap((id) => [id, ...where.bindings, search.limit]),
        search.limit,
      ],
    };
  },
};

const DOCUMENT = 'text_document';

/** The tsquery text of a search's words, or null when it has none. */
function textQuery(search: TextSearch): string | null {
  const words = plainWords(search.words);
  if (!words.length) return null;
  const all = (weight: string) => `(${words.map((word) => `${word}${weight}`).join(' & ')})`;
  switch (search.placement) {
    case 'anywhere':
      return all('');
    case 'first-column':
      return all(`:${WEIGHTS[0]}`);
    case 'not-all-in-first-column':
      return `${all('')} & !${all(`:${WEIGHTS[0]}`)}`;
  }
}
