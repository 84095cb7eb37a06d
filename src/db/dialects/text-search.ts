/**
 * A full-text index kept by the database itself over the rows of one table, searched in the
 * order of the table's integer key, newest (largest) first, so that a page reads only as many
 * index entries as it keeps: the job search index (src/job-search/, DESIGN §10). Each engine
 * builds it its own way (./sqlite-text-search.ts, ./postgres-text-search.ts); the names of
 * tables and columns come from the code, never from input.
 */
export interface TextIndex {
  /** The indexed table. */
  readonly table: string;
  /** Its integer key: the order of every search (descending). */
  readonly key: string;
  /** The weighted text columns: the first is the one a "first column only" search reads. */
  readonly textColumns: readonly [first: string, ...others: string[]];
  /** Integer columns naming grid cells (src/job-search/geo-cells.ts), one per grid level. */
  readonly cellColumns: readonly string[];
  /**
   * A text column of terms the application writes, each joining a word of the first text column
   * with the row's cell of the first level (src/job-search/title-cell-terms.ts): an engine that
   * indexes it answers a first-column search at that level from those terms alone
   * (`TextSearch.joinedTerms`).
   */
  readonly joinedTermsColumn?: string;
}

/** Which rows of the index a search matches, by where its words are. */
export type WordPlacement =
  /** Every word in any text column. */
  | 'anywhere'
  /** Every word in the first text column. */
  | 'first-column'
  /** Every word in the text columns, but not every one in the first. */
  | 'not-all-in-first-column';

export interface TextSearch {
  /** Words that must all occur: letters and digits only, lower case (the caller's work). */
  readonly words: readonly string[];
  readonly placement: WordPlacement;
  /** When given, only rows whose `column` is one of `cells` (at most a few dozen). */
  readonly cells: { readonly column: string; readonly ids: readonly number[] } | null;
  /**
   * With cells of the first level: the joined terms of the words in those cells, for each word
   * the terms any one of which a row holds when the word is in its first column there. An
   * engine that indexes `joinedTermsColumn` finds the first-column tier with them.
   */
  readonly joinedTerms: readonly (readonly string[])[] | null;
  /** Only rows whose key is below this; null for the first page. */
  readonly before: number | null;
  /** The columns each row comes back with. */
  readonly columns: readonly string[];
  /**
   * Further conditions (`?` placeholders), ANDed, on the table's columns, each written
   * `indexed.<column>`.
   */
  readonly conditions: readonly { readonly sql: string; readonly bindings: readonly unknown[] }[];
  readonly limit: number;
}

export interface TextIndexSql {
  /** Statements that create the index beside the table (after the table exists). */
  create(index: TextIndex): string[];
  /** Statements that drop it (before the table is dropped). */
  drop(index: TextIndex): string[];
  /**
   * Statements that bring an index made by an earlier version of `create` to what `create`
   * makes now, keeping every row indexed (a migration's work).
   */
  upgrade(index: TextIndex): string[];
  /** Statements that index the rows already in the table, after `create` (a migration's work). */
  fill(index: TextIndex): string[];
  /**
   * Statements for after a bulk load and its compaction, each run on its own outside any
   * transaction: work the engine would otherwise do in the background some time later.
   */
  afterBulkLoad(index: TextIndex): string[];
  /** Upkeep the index needs from the service. */
  readonly upkeep: TextIndexUpkeep;
  /**
   * A select of the table's rows (every column) that match, in descending key order, at most
   * `limit` of them.
   */
  search(index: TextIndex, search: TextSearch): { sql: string; bindings: unknown[] };
}

/**
 * Work an index needs between writes, done in bounded steps, each in a transaction of its own,
 * until a step finds nothing to do: SQLite merges the FTS5 segments that writes add, PostgreSQL
 * moves the GIN index's pending list (where inserts go first, and which every search reads
 * whole) into the index proper.
 */
export interface TextIndexUpkeep {
  /**
   * One step, about `pages` pages of work, through `on` (the step's transaction); whether it
   * found any work to do. `merge` is the routine kind; `compact` puts the whole index into its
   * fastest shape after a bulk load, rewriting it where the engine must.
   */
  step(
    index: TextIndex,
    kind: 'merge' | 'compact',
    pages: number,
    on: UpkeepStatements,
  ): Promise<boolean>;
}

/** How an upkeep step runs its statements, all on the one connection of its transaction. */
export interface UpkeepStatements {
  select(sql: string): Promise<readonly Record<string, unknown>[]>;
  execute(sql: string): Promise<void>;
}

/** Checks that a name taken from code is a plain identifier before it is written into SQL. */
export function identifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain SQL identifier: ${name}`);
  return name;
}

/** Checks that every word is what the caller promised: lower-case letters and digits. */
export function plainWords(words: readonly string[]): readonly string[] {
  for (const word of words) {
    if (!/^[\p{Ll}\p{Lo}\p{N}]+$/u.test(word)) throw new Error(`not a plain search word: ${word}`);
  }
  return words;
}

/** The alias the table's rows have in a search, which `conditions` name. */
export const ROW_ALIAS = 'indexed';

/** The columns of a search, on ROW_ALIAS. */
export function selectedColumns(search: TextSearch): string {
  return search.columns.map((column) => `${ROW_ALIAS}.${identifier(column)}`).join(', ');
}

/** The key bound (on `keyColumn`) and the extra conditions of a search, as SQL. */
export function commonConditions(
  search: TextSearch,
  keyColumn: string,
): { sql: string[]; bindings: unknown[] } {
  const sql: string[] = [];
  const bindings: unknown[] = [];
  if (search.before !== null) {
    sql.push(`${keyColumn} < ?`);
    bindings.push(search.before);
  }
  for (const condition of search.conditions) {
    sql.push(`(${condition.sql})`);
    bindings.push(...condition.bindings);
  }
  return { sql, bindings };
}
