import {
  commonConditions,
  identifier,
  plainWords,
  ROW_ALIAS,
  selectedColumns,
  type TextIndex,
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
 *
 * The walk of a cell reads the whole cell when few of its rows hold the words, and the GIN index
 * of the words alone returns their matches everywhere: both grow with the table. With placed
 * terms (migration 0032), a GIN index over an expression that joins each lexeme of a row with
 * its cell at each level (`0x172243tsoftwar`: level 0, cell 172243, in the title, "software")
 * answers "these words in this cell" with only the rows that have them there; the planner takes
 * it for a cell where the words are rare, and the walk in key order where they are common.
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

  placeTerms(index) {
    const table = identifier(index.table);
    const title = WEIGHTS[0];
    return [
      // Every lexeme once as "anywhere" (a), and the first column's also as "title" (t), for
      // each cell the row has; COST tells the planner that it is dear to compute row by row.
      `CREATE FUNCTION ${placedTermsFunction(index)}(document tsvector, cells integer[]) ` +
        `RETURNS tsvector LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$ ` +
        `SELECT array_to_tsvector(coalesce(array_agg(` +
        `(place.level - 1) || 'x' || place.cell || term.kind || term.lexeme), '{}')) ` +
        `FROM unnest(cells) WITH ORDINALITY AS place(cell, level) CROSS JOIN LATERAL (` +
        `SELECT '${ANYWHERE}' AS kind, lexeme FROM unnest(document) UNION ALL ` +
        `SELECT '${IN_TITLE}', lexeme FROM unnest(document) WHERE '${title}' = ANY(weights)` +
        `) AS term WHERE place.cell IS NOT NULL $$`,
      // The query side: every lexeme of the words (stemmed as the document was, stopwords
      // dropped), each behind the same prefix; null when none is left.
      `CREATE FUNCTION ${placedQueryFunction(index)}(prefix text, words text) RETURNS tsquery ` +
        `LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ ` +
        `SELECT string_agg(quote_literal(prefix || lexeme), ' & ')::tsquery ` +
        `FROM unnest(to_tsvector('${CONFIGURATION}', words)) $$`,
      `CREATE INDEX ${table}_placed_idx ON ${table} USING gin (${placedTerms(index)})`,
    ];
  },

  unplaceTerms(index) {
    const table = identifier(index.table);
    return [
      `DROP INDEX ${table}_placed_idx`,
      `DROP FUNCTION ${placedQueryFunction(index)}(text, text)`,
      `DROP FUNCTION ${placedTermsFunction(index)}(tsvector, integer[])`,
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
    const level = index.cellColumns.indexOf(search.cells.column);
    if (level < 0) throw new Error(`${search.cells.column} is not a cell column of the index`);
    const cellColumn = `${ROW_ALIAS}.${identifier(search.cells.column)}`;
    const placed = index.placedTerms && text !== null ? placedCondition(index, search) : null;
    const parts = search.cells.ids.map(
      () => `(${select([`${cellColumn} = ?`, ...(placed ? [placed.sql] : [])])})`,
    );
    const words = search.words.join(' ');
    return {
      sql:
        `SELECT * FROM (${parts.join(' UNION ALL ')}) AS found ` +
        `ORDER BY found.${key} DESC LIMIT ?`,
      bindings: [
        ...search.cells.ids.flatMap((id) => [
          id,
          ...(placed ? placed.prefixes(level, id).flatMap((prefix) => [prefix, words]) : []),
          ...where.bindings,
          search.limit,
        ]),
        search.limit,
      ],
    };
  },
};

const DOCUMENT = 'text_document';
/** The kinds of placed term: a lexeme anywhere in the row, or in its first text column. */
const ANYWHERE = 'a';
const IN_TITLE = 't';

function placedTermsFunction(index: TextIndex): string {
  return `${identifier(index.table)}_placed_terms`;
}

function placedQueryFunction(index: TextIndex): string {
  return `${identifier(index.table)}_placed_query`;
}

/** The indexed expression: the placed terms of a row (written alike wherever it is used). */
function placedTerms(index: TextIndex, row?: string): string {
  const column = (name: string) => `${row ? `${row}.` : ''}${identifier(name)}`;
  return (
    `${placedTermsFunction(index)}(${column(DOCUMENT)}, ` +
    `ARRAY[${index.cellColumns.map(column).join(', ')}]::integer[])`
  );
}

/**
 * The condition on a row's placed terms for one cell of a search with words: its SQL (each `?`
 * pair a prefix and the words) and the prefixes it binds for a cell.
 */
function placedCondition(
  index: TextIndex,
  search: TextSearch,
): { sql: string; prefixes: (level: number, cell: number) => string[] } {
  const query = `${placedQueryFunction(index)}(?, ?)`;
  const prefix = (kind: string) => (level: number, cell: number) =>
    `${level}x${Math.trunc(cell)}${kind}`;
  const row = placedTerms(index, ROW_ALIAS);
  switch (search.placement) {
    case 'anywhere':
      return { sql: `${row} @@ ${query}`, prefixes: (l, c) => [prefix(ANYWHERE)(l, c)] };
    case 'first-column':
      return { sql: `${row} @@ ${query}`, prefixes: (l, c) => [prefix(IN_TITLE)(l, c)] };
    case 'not-all-in-first-column':
      return {
        sql: `${row} @@ (${query} && !!${query})`,
        prefixes: (l, c) => [prefix(ANYWHERE)(l, c), prefix(IN_TITLE)(l, c)],
      };
  }
}

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
