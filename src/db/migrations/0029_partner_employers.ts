import type { Knex } from 'knex';

/**
 * Employers as partners describe them through the Employer Data API's `patchEmployer`
 * (src/employer-data, docs/jobs-apis.md "Employer Data"). A `{type, id}` pair names one employer
 * among all the apps of one partner (the apps' owner account): the app that created it owns it,
 * and the partner's other apps are refused (a protected employer). Not the accounts' `employers`
 * (who a token acts for): these are what job postings cite in `jobSource.employerIds`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('partner_employers', (t) => {
    t.string('id', 36).primary();
    t.string('owner_user_id', 36)
      .notNullable()
      .references('id')
      .inTable('users')
      .onDelete('CASCADE');
    t.string('app_id', 36).notNullable().references('id').inTable('apps').onDelete('CASCADE');
    t.string('id_type', 100).notNullable();
    t.string('external_id', 255).notNullable();
    t.string('employer_name', 255).notNullable();
    // JSON: employerType and the country- and locale-specific attributes, merged patch by patch.
    t.text('attributes').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['owner_user_id', 'id_type', 'external_id'], {
      indexName: 'partner_employers_pair_key',
    });
    t.index(['app_id', 'id_type', 'external_id'], 'partner_employers_app_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('partner_employers');
}
