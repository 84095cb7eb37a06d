import type { Knex } from 'knex';

/**
 * Disposition Sync (docs/jobs-apis.md): what became of each application, as partner apps send
 * it with `partnerDisposition.send`. One row per disposition acknowledged, for the app and the
 * employer of the token it came with (none for an app's own token). `dedupe_key` makes a
 * disposition sent twice (a retry, or two clients racing) one row: it digests the employer, the
 * identifier, the statuses and the instant (src/disposition-sync/disposition-key.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('partner_dispositions', (t) => {
    t.bigIncrements('id');
    t.string('app_id', 36).notNullable().references('id').inTable('apps').onDelete('CASCADE');
    t.string('employer_id', 36).references('id').inTable('employers').onDelete('CASCADE');
    t.string('dedupe_key', 64).notNullable();
    // The identifier as sent (JSON): what the read query and the console echo.
    t.text('identified_by').notNullable();
    t.string('disposition_status', 40).notNullable();
    t.string('raw_disposition_status', 200).notNullable();
    t.text('raw_disposition_details');
    t.string('ats_name', 200).notNullable();
    t.bigInteger('status_changed_at').notNullable();
    // The UTC offset statusChangeDateTime was written in, to answer it the same way.
    t.integer('status_change_offset').notNullable();
    t.string('application_source_name', 200);
    t.bigInteger('received_at').notNullable();
    t.unique(['app_id', 'dedupe_key'], { indexName: 'partner_dispositions_dedupe_unique' });
    // The read query (one app and employer) and the console (one app): the latest change first.
    t.index(['app_id', 'employer_id', 'status_changed_at', 'id'], 'partner_dispositions_owner_idx');
    t.index(['app_id', 'status_changed_at', 'id'], 'partner_dispositions_app_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('partner_dispositions');
}
