import {
  commonConditions,
  identifier,
  plainWords,
  ROW_ALIAS,
  selectedColumns,
  type TextIndex,
  type TextIndexSql,
  type TextSearch,
  type UpkeepStatements,
} from './text-search.js';

/**
 * The text index on SQLite: a contentless FTS5 table (porter stemming, diacritics folded) whose
 * rowid is the indexed table's key, kept by triggers. Each cell column becomes a token
 * (`c<level>x<cell>`) of a fourth FTS column, so that a place is part of the match and FTS5
 * walks the rows of the text AND the place in rowid order, newest first, stopping at the limit.
 *
 * FTS5 writes each transaction's postings as a new segment and merges segments as they pile up
 * (four of a size, by default). A query seeks through every segment, so at a million postings
 * the pile costs about as much as the search itself. The service merges as soon as two
 * segments are of a size (`usermerge` 2), in bounded steps between writes (`upkeep`,
 * src/job-search/index-upkeep.ts) rather than in the writers' transactions, and a bulk load
 * ends by compacting the index into one segment.
 */
export const sqliteTextIndex: TextIndexSql = {
  create(index) {
    const fts = ftsTable(index);
    const key = identifier(index.key);
    const insert = (row: string) =>
      `INSERT INTO ${fts} (rowid, ${ftsColumns(index).join(', ')}) ` +
      `VALUES (${row}.${key}, ${ftsValues(index, row)});`;
    const remove = (row: string) => `DELETE FROM ${fts} WHERE rowid = ${row}.${key};`;
    return [
      `CREATE VIRTUAL TABLE ${fts} USING fts5(${ftsColumns(index).join(', ')}, content='', ` +
        `contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`,
      `INSERT INTO ${fts} (${fts}, rank) VALUES ('usermerge', ${MERGE_AT_SEGMENTS})`,
      `CREATE TRIGGER ${fts}_insert AFTER INSERT ON ${index.table} BEGIN ${insert('new')} END`,
      `CREATE TRIGGER ${fts}_delete AFTER DELETE ON ${index.table} BEGIN ${remove('old')} END`,
      `CREATE TRIGGER ${fts}_update AFTER UPDATE ON ${index.table} BEGIN ` +
        `${remove('old')} ${insert('new')} END`,
    ];
  },

  drop(index) {
    const fts = ftsTable(index);
    return [
      `DROP TRIGGER ${fts}_update`,
      `DROP TRIGGER ${fts}_delete`,
      `DROP TRIGGER ${fts}_insert`,
      `DROP TABLE ${fts}`,
    ];
  },

  upgrade(index) {
    // The table is as the first version made it; only its merge setting is new.
    const fts = ftsTable(index);
    return [`INSERT INTO ${fts} (${fts}, rank) VALUES ('usermerge', ${MERGE_AT_SEGMENTS})`];
  },

  fill(index) {
    const fts = ftsTable(index);
    const table = identifier(index.table);
    return [
      `INSERT INTO ${fts} (rowid, ${ftsColumns(index).join(', ')}) ` +
        `SELECT ${table}.${identifier(index.key)}, ${ftsValues(index, table)} FROM ${table}`,
      // One segment, as after a bulk load.
      `INSERT INTO ${fts} (${fts}) VALUES ('optimize')`,
    ];
  },

  afterBulkLoad: () => [],

  upkeep: {
    async step(index, kind, pages, on) {
      const fts = ftsTable(index);
      await keepSegmentDeletesSeeking(fts, on);
      const size = Math.max(1, Math.trunc(pages));
      // A negative page count merges whatever there is, down to one segment ("optimize").
      const merge = `INSERT INTO ${fts} (${fts}, rank) VALUES ('merge', ${kind === 'compact' ? -size : size})`;
      const changes = async () =>
        Number((await on.select('SELECT total_changes() AS changes'))[0]!.changes);
      const before = await changes();
      await on.execute(merge);
      // The command's own row counts once; a merge that wrote anything counts more.
      return (await changes()) - before >= 2;
    },
  },

  search(index, search) {
    const key = identifier(index.key);
    const match = matchExpression(index, search);
    const columns = selectedColumns(search);
    if (match === null) {
      const where = commonConditions(search, `${ROW_ALIAS}.${key}`);
      return {
        sql:
          `SELECT ${columns} FROM ${index.table} AS ${ROW_ALIAS}` +
          (where.sql.length ? ` WHERE ${where.sql.join(' AND ')}` : '') +
          ` ORDER BY ${ROW_ALIAS}.${key} DESC LIMIT ?`,
        bindings: [...where.bindings, search.limit],
      };
    }
    const fts = ftsTable(index);
    // The bound on the FTS rowid, which FTS5 applies while it walks the match.
    const where = commonConditions(search, `${fts}.rowid`);
    return {
      sql:
        `SELECT ${columns} FROM ${fts} JOIN ${index.table} AS ${ROW_ALIAS} ` +
        `ON ${ROW_ALIAS}.${key} = ${fts}.rowid WHERE ${fts} MATCH ?` +
        where.sql.map((condition) => ` AND ${condition}`).join('') +
        ` ORDER BY ${fts}.rowid DESC LIMIT ?`,
      bindings: [match, ...where.bindings, search.limit],
    };
  },
};

/**
 * What FTS5's own `DELETE FROM <fts>_data WHERE id>=? AND id<=?` (the pages of a merged segment)
 * must be planned as: a range of the key. Any other plan reads the whole data table.
 */
const RANGE_OF_KEY = /^SEARCH .*\(rowid>\? AND rowid<\?\)/;

/**
 * Keeps FTS5's deletes of merged segments a range of the key on this connection. An ANALYZE
 * that ran while the index was empty records its data table as two rows (the structure and the
 * averages); the planner then scans the whole table for each of those deletes, so every merge,
 * in the writers' transactions too, costs as much as the index is large: Job Sync's writes
 * fell from 3,300 postings a second to 500 within 40,000 postings (docs/jobs-apis.md). A
 * connection loads the statistics when it opens and keeps them, so each connection's own plan
 * is checked (a prepare, no read), and the table analyzed again where it is wrong and the
 * table no longer tiny.
 */
async function keepSegmentDeletesSeeking(fts: string, on: UpkeepStatements): Promise<void> {
  const data = `${fts}_data`;
  const plan = await on.select(
    `EXPLAIN QUERY PLAN SELECT id FROM ${data} WHERE id >= 0 AND id <= 1`,
  );
  if (plan.some((step) => RANGE_OF_KEY.test(String(step.detail)))) return;
  // A scan of a table this small costs no more than a seek; analyzing it again would only
  // record it as small again (and reload every statistic, and re-prepare every statement).
  const [few] = await on.select(
    `SELECT count(*) AS rows FROM (SELECT 1 FROM ${data} LIMIT ${FEW_ROWS})`,
  );
  if (Number(few?.rows) < FEW_ROWS) return;
  await on.execute(`ANALYZE ${data}`);
}

/** Rows of the data table from which the planner, told so, seeks a range of the key. */
const FEW_ROWS = 10;

const CELLS = 'cells';

/** Segments of one size that FTS5 merges into one (its default is four). */
const MERGE_AT_SEGMENTS = 2;

function ftsTable(index: TextIndex): string {
  return `${identifier(index.table)}_text`;
}

/** The FTS5 table's columns: the text columns, the cells, and the joined terms if any. */
function ftsColumns(index: TextIndex): string[] {
  return [
    ...index.textColumns.map(identifier),
    CELLS,
    ...(index.joinedTermsColumn ? [identifier(index.joinedTermsColumn)] : []),
  ];
}

/** What a row of the indexed table (`row`, a name or alias) puts in each of ftsColumns. */
function ftsValues(index: TextIndex, row: string): string {
  return [
    ...index.textColumns.map((column) => `${row}.${identifier(column)}`),
    cellTokens(index, row),
    ...(index.joinedTermsColumn ? [`${row}.${identifier(index.joinedTermsColumn)}`] : []),
  ].join(', ');
}

/** `'c0x' || row.cell_a || ' c1x' || row.cell_b`: the tokens of a row's cells. */
function cellTokens(index: TextIndex, row: string): string {
  if (!index.cellColumns.length) return "''";
  return index.cellColumns
    .map((column, level) => `'${level ? ' ' : ''}c${level}x' || ${row}.${identifier(column)}`)
    .join(' || ');
}

/** The FTS5 query of a search, or null when it has neither words nor cells. */
function matchExpression(index: TextIndex, search: TextSearch): string | null {
  const parts: string[] = [];
  const words = plainWords(search.words);
  if (words.length) {
    const all = `(${words.map((word) => `"${word}"`).join(' AND ')})`;
    const anywhere = `({${index.textColumns.join(' ')}} : ${all})`;
    // Near a place at the first level, "every word in the first column" is the words' joined
    // terms in the place's cells: FTS5 then walks only the rows that hold them. Still ANDed
    // with `anywhere`, so that the two tiers split exactly the rows the words match even where
    // the application's stems and FTS5's disagree.
    const joined = joinedMatch(index, search);
    const first = joined ? `(${anywhere} AND ${joined})` : `({${index.textColumns[0]}} : ${all})`;
    // The joined terms hold the cells: nothing more to match.
    if (joined && search.placement === 'first-column') return first;
    parts.push(
      search.placement === 'anywhere'
        ? anywhere
        : search.placement === 'first-column'
          ? first
          : `(${anywhere} NOT ${joined ?? first})`,
    );
  }
  if (search.cells) {
    const level = index.cellColumns.indexOf(search.cells.column);
    if (level < 0) throw new Error(`${search.cells.column} is not a cell column of the index`);
    const tokens = search.cells.ids.map((id) => `"c${level}x${Math.trunc(id)}"`);
    parts.push(`(${CELLS} : (${tokens.join(' OR ')}))`);
  }
  return parts.length ? parts.join(' AND ') : null;
}

/** The joined terms of a search as an FTS5 query of their column, or null when it has none. */
function joinedMatch(index: TextIndex, search: TextSearch): string | null {
  const column = index.joinedTermsColumn;
  if (!column || !search.joinedTerms || search.cells?.column !== index.cellColumns[0]) return null;
  const each = search.joinedTerms.map(
    (terms) => `(${terms.map((term) => `"${plainWords([term])[0]}"`).join(' OR ')})`,
  );
  return `({${column}} : (${each.join(' AND ')}))`;
}
