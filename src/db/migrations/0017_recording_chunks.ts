import type { Knex } from 'knex';

/**
 * Each chunk of a recording, decided in the database before its bytes touch the file (README
 * "Recordings"): a row is first a claim on the sequence number by one request (`claim_id`), and
 * becomes the committed chunk in the transaction that moves the recording's `bytes` and `chunks`
 * forward. The digest tells a retry of a committed chunk (the same bytes) from other content.
 * Chunks acknowledged before this migration have no row; `recordings.chunks` still counts them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('recording_chunks', (t) => {
    t.string('recording_id', 36)
      .notNullable()
      .references('id')
      .inTable('recordings')
      .onDelete('CASCADE');
    t.integer('seq').notNullable();
    /** Where the chunk starts in the file: the recording's committed bytes when it was claimed. */
    t.bigInteger('start_byte').notNullable();
    t.integer('size').notNullable();
    /** SHA-256 of the chunk's bytes, hex. */
    t.string('digest', 64).notNullable();
    /** The request holding the claim; whoever replaces a stale claim sets its own. */
    t.string('claim_id', 36).notNullable();
    t.bigInteger('claimed_at').notNullable();
    /** Null while claimed. */
    t.bigInteger('committed_at');
    t.primary(['recording_id', 'seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('recording_chunks');
}
