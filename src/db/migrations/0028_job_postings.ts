import type { Knex } from 'knex';

/**
 * Job Sync's sourced job postings (src/job-sync, docs/jobs-apis.md "Job Sync"). One row per
 * upsert key: the posting app, the employer of its token, `sourceName` and `jobPostingId`. The
 * posting as last written is kept whole as JSON (`posting`); the columns beside it are what is
 * looked up, listed or ordered by. `sourced_posting_id` changes only when a posting expired more
 * than 30 days before is reactivated; `id` never does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('job_postings', (t) => {
    t.string('id', 36).primary();
    t.string('sourced_posting_id', 36).notNullable().unique('job_postings_sourced_posting_id_key');
    t.string('app_id', 36).notNullable().references('id').inTable('apps').onDelete('CASCADE');
    t.string('employer_id', 36)
      .notNullable()
      .references('id')
      .inTable('employers')
      .onDelete('CASCADE');
    t.string('source_name', 255).notNullable();
    t.string('job_posting_id', 255).notNullable();
    // One sourceType per sourceName (platform-apis.md §3.2), checked on every write.
    t.string('source_type', 20).notNullable();
    t.string('title', 500).notNullable();
    t.string('company_name', 255).notNullable();
    // JSON: the normalized posting (body, metadata, applyMethod) as last written.
    t.text('posting').notNullable();
    t.bigInteger('date_published').notNullable();
    // PENDING before this instant, ACTIVE from it (until expired_at).
    t.bigInteger('active_from').notNullable();
    t.bigInteger('expired_at');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['app_id', 'employer_id', 'source_name', 'job_posting_id'], {
      indexName: 'job_postings_upsert_key',
    });
    // The console's list of an app's postings, newest change first.
    t.index(['app_id', 'updated_at', 'id'], 'job_postings_app_updated_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('job_postings');
}
