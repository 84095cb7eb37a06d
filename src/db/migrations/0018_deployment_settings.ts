import type { Knex } from 'knex';

/**
 * What the server that owns the database runs as, recorded at each start so that the admin CLI
 * (another process, with another environment) follows the deployment rather than its own shell:
 * the environment, the token issuer and audience, and whether sandbox tokens may be issued.
 * One row per role; today only `server`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('deployment_settings', (t) => {
    t.string('role', 32).primary();
    t.string('environment', 16).notNullable();
    t.string('issuer', 2048).notNullable();
    t.string('audience', 2048).notNullable();
    t.boolean('sandbox_tokens').notNullable();
    t.bigInteger('recorded_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('deployment_settings');
}
