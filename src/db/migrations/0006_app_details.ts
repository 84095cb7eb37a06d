import type { Knex } from 'knex';

/**
 * What a partner says about an app, and the grants it may use at the token endpoint: a
 * space-separated set, every grant for apps registered before this column existed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('apps', (t) => {
    t.text('description');
    t.string('grant_types', 100)
      .notNullable()
      .defaultTo('authorization_code refresh_token client_credentials');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('apps', (t) => {
    t.dropColumn('grant_types');
    t.dropColumn('description');
  });
}
