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
 * column with the key.
 *
 * The document also holds a term per grid cell (`#0x187411`, one per cell column: the parser
 * splits words at `#`, so no word of the text can be one), so that a search with words and a
 * place is one GIN lookup that intersects the words' postings with the place's: it reads the
 * rows that match both, whatever the index holds elsewhere, then keeps the newest. Walking a
 * cell's rows in key order and testing each one's document instead reads every row of the place
 * when its matches are fewer than a page, which grows with the index. The GIN lookup itself
 * still reads the place's cell terms whole (the words' lists are skipped through); the document
 * therefore also joins each word of the first column with its finest cell (`engin@#0x187411`), and
 * the first tier of relevance ("every word in the first column") near a place looks up those
 * joined terms alone, reading only the postings that match it. A search with a place and
 * no words walks the cells' B-trees in key order (one index scan per cell, merged under the
 * limit). A search without a place walks the key index, or the GIN index when the planner
 * expects few matches.
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
    // A posting with no place has null cells: array_remove leaves them out.
    const cellTerms =
      `array_to_tsvector(array_remove(ARRAY[` +
      index.cellColumns
        .map((column, level) => `'${cellTermPrefix(level)}' || ${identifier(column)}::text`)
        .join(', ') +
      `], NULL))`;
    // Each word of the first column joined with the posting's finest cell ('engin@#0x187411'):
    // the "every word in the first column" tier near a place reads only the postings that
    // match it, not every posting of the place. Only the finest level, which everyday radii use:
    // every joined term is work for every write, and searches wide enough for the coarser cells
    // keep the `word:A & cells` lookup. A generated column may only call immutable functions,
    // which rules out array_to_string: the stripped tsvector's text ('a' 'b') has the cell put
    // before each closing quote, and is read back as a tsvector.
    const firstColumnCellTerms =
      `coalesce(regexp_replace(strip(to_tsvector('${CONFIGURATION}', ` +
      `coalesce(${identifier(index.textColumns[0]!)}, '')))::text, '''( |$)', ` +
      `'${JOINED}${cellTermPrefix(JOINED_LEVEL)}' || ` +
      `${identifier(index.cellColumns[JOINED_LEVEL]!)}::text || '''\\1', 'g')` +
      `::tsvector, ''::tsvector)`;
    return [
      `ALTER TABLE ${table} ADD COLUMN ${DOCUMENT} tsvector ` +
        `GENERATED ALWAYS AS (${weighted} || ${cellTerms} || ${firstColumnCellTerms}) STORED`,
      // Inserts go to a pending list that every search reads whole, until it is full or the
      // service's upkeep (or autovacuum) moves it into the index: keep it small.
      `CREATE INDEX ${table}_text_idx ON ${table} USING gin (${DOCUMENT}) ` +
        `WITH (gin_pending_list_limit = ${PENDING_LIST_KB})`,
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

  upgrade(index) {
    // The generated column computes every row's document again when it is added back.
    return [...postgresTextIndex.drop(index), ...postgresTextIndex.create(index)];
  },

  upkeep: {
    // Both kinds: the pending list moved into the index (every search reads the list whole).
    // Only the index's owner may do it; a service whose role is not (its tables made by another)
    // leaves the list to autovacuum rather than fail every pass.
    async step(index, _kind, _pages, on) {
      const [row] = await on.select(
        `SELECT CASE WHEN pg_has_role(relowner, 'USAGE') THEN gin_clean_pending_list(oid) ` +
          `ELSE 0 END AS pages FROM pg_class ` +
          `WHERE oid = '${identifier(index.table)}_text_idx'::regclass`,
      );
      return Number(row?.pages ?? 0) > 0;
    },
  },

  search(index, search) {
    const table = identifier(index.table);
    const key = identifier(index.key);
    const columns = selectedColumns(search);
    const where = commonConditions(search, `${ROW_ALIAS}.${key}`);
    const text = textQuery(search);
    if (text !== null && search.cells) {
      // One GIN lookup of the words and the cells' terms. The key is ordered as an expression
      // so that the planner cannot walk the key index across the whole table instead.
      const level = index.cellColumns.indexOf(search.cells.column);
      if (level < 0) throw new Error(`${search.cells.column} is not a cell column of the index`);
      const cells = search.cells.ids
        .map((id) => `'${cellTermPrefix(level)}${Math.trunc(id)}'`)
        .join(' | ');
      if (search.placement === 'first-column' && level === JOINED_LEVEL) {
        // Every word in the first column near the place: the words' joined terms, each word in
        // any of the cells, built from the words' lexemes as the document's were.
        return {
          sql:
            `SELECT ${columns} FROM ${table} AS ${ROW_ALIAS} ` +
            `WHERE ${[`${ROW_ALIAS}.${DOCUMENT} @@ ${JOINED_QUERY}`, ...where.sql].join(' AND ')} ` +
            `ORDER BY ${ROW_ALIAS}.${key} + 0 DESC LIMIT ?`,
          bindings: [
            // An array literal: knex would spread a JavaScript array into a list of bindings.
            `{${search.cells.ids.map((id) => `"${JOINED}${cellTermPrefix(level)}${Math.trunc(id)}"`).join(',')}}`,
            plainWords(search.words).join(' '),
            ...where.bindings,
            search.limit,
          ],
        };
      }
      return {
        sql:
          `SELECT ${columns} FROM ${table} AS ${ROW_ALIAS} ` +
          `WHERE ${[
            `${ROW_ALIAS}.${DOCUMENT} @@ (to_tsquery('${CONFIGURATION}', ?) && ?::tsquery)`,
            // Words that are all stop words make an empty query, and `empty && cells` is the
            // cells alone: such words match nothing, as they do without a place.
            `numnode(to_tsquery('${CONFIGURATION}', ?)) > 0`,
            ...where.sql,
          ].join(' AND ')} ORDER BY ${ROW_ALIAS}.${key} + 0 DESC LIMIT ?`,
        bindings: [text, cells, text, ...where.bindings, search.limit],
      };
    }
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

/** The cell level whose cells the first column's words are joined with: the finest. */
const JOINED_LEVEL = 0;

/** Between a word of the first column and a cell's term in their joined term. */
const JOINED = '@';

/**
 * The tsquery of every word (its lexemes, as to_tsvector makes them) joined with any of the
 * cells: `('engin@#0x1' | 'engin@#0x2') & ('softwar@#0x1' | …)`; bindings: the cells' joined
 * suffixes, then the words. No lexeme (only stop words) makes it null, which matches nothing.
 */
const JOINED_QUERY =
  `(SELECT string_agg('(' || (SELECT string_agg(quote_literal(lexeme || suffix), ' | ') ` +
  `FROM unnest(?::text[]) AS suffix) || ')', ' & ') ` +
  `FROM unnest(tsvector_to_array(to_tsvector('${CONFIGURATION}', ?))) AS lexeme)::tsquery`;

/** The GIN pending list's bound: a search reads it whole (1 MB of it took about 8 ms). */
const PENDING_LIST_KB = 256;

/** The term of a cell of grid level `level` in the document: `#0x` then the cell's number. */
function cellTermPrefix(level: number): string {
  return `#${level}x`;
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
