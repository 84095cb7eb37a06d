import type { Knex } from 'knex';

/**
 * A copy of each confidential app's client secret sealed with a key derived from
 * KEY_ENCRYPTION_SECRET, so its owner can reveal it on the console after re-entering their
 * password. Authentication still compares SHA-256 digests only; this column is never read there.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('apps', (t) => {
    t.text('client_secret_sealed');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('apps', (t) => {
    t.dropColumn('client_secret_sealed');
  });
}
