import type { Knex } from 'knex';

/**
 * Who publishes an app, as the consent page shows it: an optional developer name and the
 * app's homepage, privacy policy and logo addresses (https, checked by AppService).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('apps', (t) => {
    t.string('developer_name', 200);
    t.string('homepage_url', 2048);
    t.string('privacy_policy_url', 2048);
    t.string('logo_url', 2048);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('apps', (t) => {
    t.dropColumn('logo_url');
    t.dropColumn('privacy_policy_url');
    t.dropColumn('homepage_url');
    t.dropColumn('developer_name');
  });
}
