import type { Knex } from 'knex';

/**
 * When a signing key starts signing. A rotated key is published at once but signs only from
 * this instant, so clients caching the JWKS have fetched it before they meet its `kid`.
 * Existing keys have signed since they were created. The column default of 0 means "at once",
 * which is what keys written by a process of the previous release expect during an upgrade.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('signing_keys', (t) => {
    t.bigInteger('activates_at').notNullable().defaultTo(0);
  });
  await knex('signing_keys').update({ activates_at: knex.ref('created_at') });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('signing_keys', (t) => {
    t.dropColumn('activates_at');
  });
}
