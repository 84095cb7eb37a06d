import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Layout of rate-limiter-flexible's SQL stores, which keep their counters here so that limits
  // hold across every process sharing the database.
  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
    t.index(['expire'], 'rate_limit_counters_expire_idx');
  });

  await knex.schema.createTable('audit_events', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('occurred_at').notNullable();
    t.string('type', 64).notNullable();
    // No foreign keys: the audit trail outlives the users, apps and employers it mentions.
    t.string('actor_user_id', 36);
    t.string('app_id', 36);
    t.string('employer_id', 36);
    t.string('request_id', 64);
    t.string('ip', 64);
    t.text('details');
    t.index(['occurred_at'], 'audit_events_occurred_idx');
    t.index(['type', 'occurred_at'], 'audit_events_type_occurred_idx');
    t.index(['actor_user_id', 'occurred_at'], 'audit_events_actor_idx');
    t.index(['app_id', 'occurred_at'], 'audit_events_app_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_events');
  await knex.schema.dropTable('rate_limit_counters');
}
