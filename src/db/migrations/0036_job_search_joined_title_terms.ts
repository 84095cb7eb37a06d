import type { Knex } from 'knex';
import { titleCellTermsOf } from '../../job-search/title-cell-terms.js';
import { dialectOf } from '../dialects/index.js';
import type { TextIndex } from '../dialects/text-search.js';

const SEARCH_TABLE = 'job_search_postings';

/** The index as 0031 made it (0034 and 0035 changed how the engines keep it, not its shape). */
const BEFORE: TextIndex = {
  table: SEARCH_TABLE,
  key: 'sort_key',
  textColumns: ['title', 'company_name', 'description_text'],
  cellColumns: ['cell_fine', 'cell_coarse'],
};

/** As src/job-search/search-index.ts searches it now. */
const AFTER: TextIndex = { ...BEFORE, joinedTermsColumn: 'title_cell_terms' };

/** Rows given their terms per statement. */
const BATCH = 500;

/**
 * Each posting's title words joined with its finest cell (src/job-search/title-cell-terms.ts),
 * kept in a column that SQLite's FTS5 table indexes, so that "every word in the title" near a
 * place reads only the postings that match. The text index is taken down while the rows get
 * their terms (so that no trigger or generated column works on each update), then made again
 * and filled.
 */
export async function up(knex: Knex): Promise<void> {
  const { textIndex } = dialectOf(knex);
  await knex.schema.alterTable(SEARCH_TABLE, (t) => {
    t.text('title_cell_terms').notNullable().defaultTo('');
  });
  for (const statement of textIndex.drop(BEFORE)) await knex.raw(statement);
  let after: number | null = null;
  for (;;) {
    const query = knex(SEARCH_TABLE)
      .select('sort_key', 'title', 'cell_fine')
      .whereNotNull('cell_fine')
      .orderBy('sort_key')
      .limit(BATCH);
    if (after !== null) query.where('sort_key', '>', after);
    const rows = (await query) as { sort_key: string | number; title: string; cell_fine: number }[];
    if (!rows.length) break;
    // One statement per batch; both engines name a VALUES list's columns column1, column2.
    await knex.raw(
      `UPDATE ${SEARCH_TABLE} SET title_cell_terms = terms.column2 ` +
        `FROM (VALUES ${rows.map(() => '(CAST(? AS bigint), ?)').join(', ')}) AS terms ` +
        `WHERE ${SEARCH_TABLE}.sort_key = terms.column1`,
      rows.flatMap((row) => [
        String(row.sort_key),
        titleCellTermsOf(row.title, Number(row.cell_fine)),
      ]),
    );
    after = Number(rows[rows.length - 1]!.sort_key);
  }
  for (const statement of [...textIndex.create(AFTER), ...textIndex.fill(AFTER)]) {
    await knex.raw(statement);
  }
}

export async function down(knex: Knex): Promise<void> {
  const { textIndex } = dialectOf(knex);
  for (const statement of textIndex.drop(AFTER)) await knex.raw(statement);
  await knex.schema.alterTable(SEARCH_TABLE, (t) => t.dropColumn('title_cell_terms'));
  for (const statement of [...textIndex.create(BEFORE), ...textIndex.fill(BEFORE)]) {
    await knex.raw(statement);
  }
}
