import type { Knex } from 'knex';

/**
 * Rate-limit counters move from rate-limiter-flexible's table (whose SQLite store ran its own
 * savepoints on the shared connection and could leave it inside a transaction for good) to
 * ours, updated by one atomic upsert. Keys are hashed, so their length is bounded whatever the
 * client sends. `service_probes` holds the readiness check's write.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limit_counters');
  await knex.schema.createTable('rate_limit_windows', (t) => {
    t.string('key', 96).primary();
    t.integer('hits').notNullable();
    t.bigInteger('resets_at').notNullable();
    t.index(['resets_at'], 'rate_limit_windows_resets_idx');
  });
  await knex.schema.createTable('service_probes', (t) => {
    t.string('name', 32).primary();
    t.bigInteger('checked_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('service_probes');
  await knex.schema.dropTable('rate_limit_windows');
  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
    t.index(['expire'], 'rate_limit_counters_expire_idx');
  });
}
