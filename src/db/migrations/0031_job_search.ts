import type { Knex } from 'knex';
import { dialectOf } from '../dialects/index.js';
import type { TextIndex } from '../dialects/text-search.js';

const SEARCH_TABLE = 'job_search_postings';

/** As src/job-search/search-index.ts searches it (a migration keeps the shape it created). */
const SEARCH_TEXT_INDEX: TextIndex = {
  table: SEARCH_TABLE,
  key: 'sort_key',
  textColumns: ['title', 'company_name', 'description_text'],
  cellColumns: ['cell_fine', 'cell_coarse'],
};

/**
 * The job search index (DESIGN §10): one row per searchable posting, a projection that only the
 * search index's posting observer writes (src/job-search/posting-indexer.ts), with the full-text
 * index the engine keeps over it (src/db/dialects/text-search.ts). `sort_key` orders every search:
 * the second the posting was published, then a tiebreak, in one integer (src/job-search/sort-key.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(SEARCH_TABLE, (t) => {
    t.bigInteger('sort_key').primary();
    t.string('sourced_posting_id', 36).notNullable().unique();
    t.string('employer_job_id', 200).notNullable();
    t.text('title').notNullable();
    t.text('company_name').notNullable();
    t.string('company_website', 2048);
    t.text('source_name').notNullable();
    // The description as plain text (what is indexed), and as the partner's HTML when it sent
    // RICH_FORMATTING.
    t.text('description_text').notNullable();
    t.text('description_html');
    t.string('country', 2).notNullable();
    t.text('city_region_postal');
    t.text('street_address');
    // The place its location resolved to; null when it resolved to none.
    t.text('city');
    t.string('admin_code', 20);
    t.string('postal_code', 10);
    t.double('latitude');
    t.double('longitude');
    t.integer('cell_fine');
    t.integer('cell_coarse');
    t.string('salary_currency', 3);
    // Minor units, as decimal text (Int64).
    t.string('salary_minimum_minor', 20);
    t.string('salary_maximum_minor', 20);
    t.string('salary_period', 10);
    // JSON array of the taxonomy's job types.
    t.text('job_types').notNullable();
    t.string('url', 2048);
    t.bigInteger('date_published').notNullable();
    // When the posting became (or becomes) searchable: dateOnIndeed.
    t.bigInteger('active_from').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  for (const statement of dialectOf(knex).textIndex.create(SEARCH_TEXT_INDEX)) {
    await knex.raw(statement);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of dialectOf(knex).textIndex.drop(SEARCH_TEXT_INDEX)) {
    await knex.raw(statement);
  }
  await knex.schema.dropTable(SEARCH_TABLE);
}
