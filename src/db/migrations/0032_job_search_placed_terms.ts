import type { Knex } from 'knex';
import { dialectOf } from '../dialects/index.js';
import type { TextIndex } from '../dialects/text-search.js';

/** The job search index as migration 0031 created it. */
const SEARCH_TEXT_INDEX: TextIndex = {
  table: 'job_search_postings',
  key: 'sort_key',
  textColumns: ['title', 'company_name', 'description_text'],
  cellColumns: ['cell_fine', 'cell_coarse'],
  placedTerms: false,
};

/**
 * Place-qualified terms for the job search index (src/db/dialects/text-search.ts): on PostgreSQL
 * a GIN index over each row's words joined with its cells, so that a text and radius search
 * reads the matches in its cells rather than the whole cells or the matches everywhere, and its
 * time stays about the same as the index grows. SQLite's FTS5 index needs none (no statements).
 */
export async function up(knex: Knex): Promise<void> {
  for (const statement of dialectOf(knex).textIndex.placeTerms(SEARCH_TEXT_INDEX)) {
    await knex.raw(statement);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of dialectOf(knex).textIndex.unplaceTerms(SEARCH_TEXT_INDEX)) {
    await knex.raw(statement);
  }
}
