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
 * column with the key.
 *
 * The document also holds a term per grid cell (`#0x187411`, one per cell column: the parser
 * splits words at `#`, so no word of the text can be one), so that a search with words and a
 * place is one GIN lookup that intersects the words' postings with the place's: it reads the
 * rows that match both, whatever the index holds elsewhere, then keeps the newest. Walking a
 * cell's rows in key order and testing each one's document instead reads every row of the place
 * when its matches are fewer than a page, which grows with the index. The GIN lookup itself
 * still reads the place's cell terms whole (the words' lists are skipped through), and a GIN
 * index gives its matches in no order, so a page reads every row that matches. The first tier
 * of relevance ("every word in the first column") near a place at the finest level therefore
 * reads the application's joined terms (`joinedTermsColumn`, `enginx187411`) from a table of
 * their own keyed by (term, key): each term's keys in order, read index-only and newest first,
 * then one row per key until the page is full. A search with a place and
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
    return [
      `ALTER TABLE ${table} ADD COLUMN ${DOCUMENT} tsvector ` +
        `GENERATED ALWAYS AS (${weighted} || ${cellTerms}) STORED`,
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
      ...(index.joinedTermsColumn ? createJoinedTerms(index, index.joinedTermsColumn) : []),
    ];
  },

  drop(index) {
    const table = identifier(index.table);
    return [
      ...(index.joinedTermsColumn ? dropJoinedTerms(index) : []),
      ...index.cellColumns.map((column) => `DROP INDEX ${table}_${identifier(column)}_idx`),
      `DROP INDEX ${table}_text_idx`,
      `ALTER TABLE ${table} DROP COLUMN ${DOCUMENT}`,
    ];
  },

  upgrade(index) {
    // The generated column computes every row's document again when it is added back.
    return [...postgresTextIndex.drop(index), ...postgresTextIndex.create(index)];
  },

  // Adding the generated column computed every row's document; the joined terms are copied.
  fill(index) {
    if (!index.joinedTermsColumn) return [];
    return [
      `INSERT INTO ${termsTable(index)} (term, key) SELECT DISTINCT term, ${identifier(index.key)} ` +
        `FROM ${identifier(index.table)}, ${termsOf(identifier(index.joinedTermsColumn))} ` +
        `WHERE term <> ''`,
    ];
  },

  // The joined terms are read from their B-tree alone only where the visibility map says a
  // page is all visible; autovacuum sets it some time after a bulk load, the load itself now.
  // A role that does not own the table gets a warning and nothing done.
  afterBulkLoad: (index) =>
    index.joinedTermsColumn ? [`VACUUM (ANALYZE) ${termsTable(index)}`] : [],

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
      const joined =
        index.joinedTermsColumn && search.joinedTerms && level === 0
          ? { column: identifier(index.joinedTermsColumn), terms: search.joinedTerms }
          : null;
      if (joined && search.placement === 'first-column') {
        return joinedTermsSearch(index, search, joined.terms, where);
      }
      let words = text;
      if (joined && search.placement === 'not-all-in-first-column') {
        // The words and the place, but not the first tier: not every word's term in the row's
        // own joined terms (the row's cell is one of the search's, so its term for a word is
        // among the word's terms when the word is in its first column).
        words = anywhere(search);
        where.sql.push(
          `NOT (${joined.terms
            .map(() => `string_to_array(${ROW_ALIAS}.${joined.column}, ' ') && ?::text[]`)
            .join(' AND ')})`,
        );
        where.bindings.push(...joined.terms.map(arrayLiteral));
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
        bindings: [words, cells, words, ...where.bindings, search.limit],
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

/** The tsquery text of every word anywhere. */
function anywhere(search: TextSearch): string {
  return textQuery({ ...search, placement: 'anywhere' })!;
}

/** A text[] literal of plain terms: knex would spread a JavaScript array into many bindings. */
function arrayLiteral(terms: readonly string[]): string {
  return `{${plainWords(terms).join(',')}}`;
}

/** The table of the joined terms, a B-tree ordered by term then key. */
function termsTable(index: TextIndex): string {
  return `${identifier(index.table)}_joined_terms`;
}

/** The terms of a row's joined column as a set-returning FROM item named `term`. */
function termsOf(column: string): string {
  return `unnest(string_to_array(${column}, ' ')) AS term`;
}

/**
 * The joined terms (src/job-search/title-cell-terms.ts) as rows of a table keyed by (term,
 * key), kept by statement triggers on the indexed table: a B-tree holds each term's keys in
 * order and reads only those, where a GIN index holds them unordered and a page would read
 * every row that matches.
 */
function createJoinedTerms(index: TextIndex, column: string): string[] {
  const table = identifier(index.table);
  const terms = termsTable(index);
  const key = identifier(index.key);
  const joined = identifier(column);
  return [
    `CREATE TABLE ${terms} (term text NOT NULL, key bigint NOT NULL, PRIMARY KEY (term, key))`,
    `CREATE FUNCTION ${terms}_sync() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
      `IF TG_OP <> 'INSERT' THEN ` +
      `DELETE FROM ${terms} USING (SELECT DISTINCT term, ${key} AS key FROM removed, ` +
      `${termsOf(`removed.${joined}`)}) AS gone ` +
      `WHERE ${terms}.term = gone.term AND ${terms}.key = gone.key; END IF; ` +
      `IF TG_OP <> 'DELETE' THEN ` +
      `INSERT INTO ${terms} (term, key) SELECT DISTINCT term, ${key} FROM added, ` +
      `${termsOf(`added.${joined}`)} WHERE term <> ''; END IF; ` +
      `RETURN NULL; END $$`,
    `CREATE TRIGGER ${terms}_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS added ` +
      `FOR EACH STATEMENT EXECUTE FUNCTION ${terms}_sync()`,
    `CREATE TRIGGER ${terms}_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS removed ` +
      `FOR EACH STATEMENT EXECUTE FUNCTION ${terms}_sync()`,
    `CREATE TRIGGER ${terms}_update AFTER UPDATE ON ${table} ` +
      `REFERENCING OLD TABLE AS removed NEW TABLE AS added ` +
      `FOR EACH STATEMENT EXECUTE FUNCTION ${terms}_sync()`,
  ];
}

function dropJoinedTerms(index: TextIndex): string[] {
  const table = identifier(index.table);
  const terms = termsTable(index);
  return [
    ...['insert', 'delete', 'update'].map((event) => `DROP TRIGGER ${terms}_${event} ON ${table}`),
    `DROP FUNCTION ${terms}_sync()`,
    `DROP TABLE ${terms}`,
  ];
}

/**
 * Every word in the first column near the place, from the joined terms: the keys holding one
 * of each word's terms, newest first (index-only reads of the B-tree), then each row by its key
 * until the page is full. The row must still match the words anywhere in its document, so that
 * the two tiers split exactly what the words match even where PostgreSQL's stems and the
 * application's disagree.
 */
function joinedTermsSearch(
  index: TextIndex,
  search: TextSearch,
  terms: readonly (readonly string[])[],
  where: { sql: string[]; bindings: unknown[] },
): { sql: string; bindings: unknown[] } {
  const table = identifier(index.table);
  const key = identifier(index.key);
  const before = search.before === null ? '' : ' AND key < ?';
  const keys = terms
    .map(() => `SELECT key FROM ${termsTable(index)} WHERE term = ANY (?::text[])${before}`)
    .join(' INTERSECT ');
  // LIMIT 1 keeps the lateral row lookup a nested loop over the keys in order, which stops at
  // the page's end, rather than a join of every key.
  const row =
    `SELECT ${selectedColumns(search)} FROM ${table} AS ${ROW_ALIAS} ` +
    `WHERE ${[
      `${ROW_ALIAS}.${key} = found.key`,
      `${ROW_ALIAS}.${DOCUMENT} @@ to_tsquery('${CONFIGURATION}', ?)`,
      ...where.sql,
    ].join(' AND ')} LIMIT 1`;
  return {
    sql:
      `SELECT matched.* FROM (${keys} ORDER BY key DESC) AS found ` +
      `CROSS JOIN LATERAL (${row}) AS matched ORDER BY found.key DESC LIMIT ?`,
    bindings: [
      ...terms.flatMap((each) =>
        search.before === null ? [arrayLiteral(each)] : [arrayLiteral(each), search.before],
      ),
      anywhere(search),
      ...where.bindings,
      search.limit,
    ],
  };
}
