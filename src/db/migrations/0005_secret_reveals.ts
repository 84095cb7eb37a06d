import type { Knex } from 'knex';

/**
 * A client secret waiting for its one display on the console, sealed with a key derived from
 * KEY_ENCRYPTION_SECRET. Kept in the database (not in one process's memory) so the page that
 * shows it may be served by any process; it goes with its browser session.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('secret_reveals', (t) => {
    t.string('session_id_hash', 64)
      .notNullable()
      .references('id_hash')
      .inTable('browser_sessions')
      .onDelete('CASCADE');
    t.string('client_id', 64).notNullable();
    t.text('secret_encrypted').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.primary(['session_id_hash', 'client_id']);
    t.index(['expires_at'], 'secret_reveals_expires_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('secret_reveals');
}
