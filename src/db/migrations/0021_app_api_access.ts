import type { Knex } from 'knex';

/**
 * Which APIs behind the GraphQL gateway an app's owner has enabled or disabled for it
 * (src/accounts/api-access-service.ts). An app without a row for an API has that API's default
 * (its registration says; src/apis.ts). A change also touches the app's row, which moves the
 * accounts epoch (0011), so every process's cached access facts are checked against it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('app_api_access', (t) => {
    t.string('app_id', 36).notNullable().references('id').inTable('apps').onDelete('CASCADE');
    t.string('api', 40).notNullable();
    t.boolean('enabled').notNullable();
    t.bigInteger('changed_at').notNullable();
    t.primary(['app_id', 'api']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('app_api_access');
}
