import type { Knex } from 'knex';
import { dialectOf } from '../dialects/index.js';
import type { TextIndex } from '../dialects/text-search.js';

/** The index 0031_job_search made (a migration keeps the shape it works on). */
const SEARCH_TEXT_INDEX: TextIndex = {
  table: 'job_search_postings',
  key: 'sort_key',
  textColumns: ['title', 'company_name', 'description_text'],
  cellColumns: ['cell_fine', 'cell_coarse'],
};

/**
 * The job search's text index as the engines keep it now (src/db/dialects/*-text-search.ts):
 * on PostgreSQL each posting's document also holds its grid cells as terms, so that words and a
 * place are one GIN lookup (the document is computed again for every row); on SQLite the FTS5
 * table merges segments two at a time.
 */
export async function up(knex: Knex): Promise<void> {
  for (const statement of dialectOf(knex).textIndex.upgrade(SEARCH_TEXT_INDEX)) {
    await knex.raw(statement);
  }
}

/** The new shape answers every search the old one did: nothing to undo. */
export async function down(): Promise<void> {}
