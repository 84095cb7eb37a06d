import type { Knex } from 'knex';

/**
 * Webhooks (DESIGN §8): the endpoints an app registers, the outbox of deliveries (one row per
 * change and matching endpoint, written in the transaction of the change) and every attempt.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.string('id', 36).primary();
    t.string('app_id', 36).notNullable().references('id').inTable('apps').onDelete('CASCADE');
    t.string('url', 2048).notNullable();
    t.string('description', 500);
    // ',type,type,' (every type when empty): matched with LIKE in the outbox's INSERT ... SELECT.
    t.text('event_types').notNullable();
    // ',employer id,...,' (every employer of the app when empty).
    t.text('employer_ids').notNullable();
    t.boolean('enabled').notNullable();
    t.string('disabled_reason', 200);
    t.bigInteger('disabled_at');
    t.text('secret_sealed').notNullable();
    // The secret before the last rotation; it signs too until previous_secret_until.
    t.text('previous_secret_sealed');
    t.bigInteger('previous_secret_until');
    // Since when every attempt to this endpoint failed (null after a success).
    t.bigInteger('failing_since');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['app_id', 'created_at'], 'webhook_endpoints_app_idx');
  });

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id');
    // The `webhook-id` header and the envelope's `id`: one per change, the same on every
    // endpoint and every retry.
    t.string('message_id', 40).notNullable();
    t.string('endpoint_id', 36)
      .notNullable()
      .references('id')
      .inTable('webhook_endpoints')
      .onDelete('CASCADE');
    t.string('app_id', 36).notNullable();
    t.string('type', 100).notNullable();
    t.string('subject', 100).notNullable();
    t.integer('sequence').notNullable();
    t.string('employer_id', 36);
    // The envelope's `time` and `data` (JSON): the worker builds the same envelope from them on
    // every attempt (src/webhooks/envelope.ts).
    t.bigInteger('occurred_at').notNullable();
    t.text('data').notNullable();
    t.enu('status', ['pending', 'delivered', 'failed']).notNullable();
    t.integer('attempt_count').notNullable();
    t.bigInteger('next_attempt_at').notNullable();
    // A process delivering it holds it until then; after a crash the lease runs out.
    t.bigInteger('leased_until');
    t.bigInteger('last_attempt_at');
    t.integer('last_status_code');
    t.bigInteger('delivered_at');
    t.bigInteger('created_at').notNullable();
    t.unique(['message_id', 'endpoint_id'], { indexName: 'webhook_deliveries_message_unique' });
    t.index(['endpoint_id', 'subject', 'sequence'], 'webhook_deliveries_subject_idx');
    t.index(['endpoint_id', 'created_at'], 'webhook_deliveries_endpoint_idx');
    t.index(['created_at'], 'webhook_deliveries_created_idx');
  });
  // What the delivery workers claim from: only rows still to deliver.
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.index(['next_attempt_at'], 'webhook_deliveries_due_idx', {
      predicate: knex.whereRaw("status = 'pending'"),
    });
  });

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.increments('id').primary();
    t.bigInteger('delivery_id')
      .notNullable()
      .references('id')
      .inTable('webhook_deliveries')
      .onDelete('CASCADE');
    t.bigInteger('attempted_at').notNullable();
    // Null when no answer came (refused, reset, timed out): then `error` says why.
    t.integer('status_code');
    t.integer('latency_ms').notNullable();
    // The first KiB of the answer's body.
    t.text('response_excerpt');
    t.string('error', 300);
    t.index(['delivery_id', 'attempted_at'], 'webhook_attempts_delivery_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_attempts');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_endpoints');
}
