import type { Knex } from 'knex';

/**
 * Recordings an interviewer makes in the interview room (README "Recordings"). The file lives
 * under RECORDINGS_DIR; the row is the truth about it: `bytes` and `chunks` are what has been
 * acknowledged, and a file longer than `bytes` has an unacknowledged tail that the next chunk cuts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('recordings', (t) => {
    t.string('id', 36).primary();
    t.string('event_id', 36)
      .notNullable()
      .references('id')
      .inTable('interview_events')
      .onDelete('CASCADE');
    t.string('record_id', 36)
      .notNullable()
      .references('id')
      .inTable('interview_records')
      .onDelete('CASCADE');
    t.string('started_by', 36)
      .notNullable()
      .references('id')
      .inTable('interviewers')
      .onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique({ indexName: 'recordings_token_hash_unique' });
    t.text('token_sealed').notNullable();
    t.bigInteger('bytes').notNullable().defaultTo(0);
    t.integer('chunks').notNullable().defaultTo(0);
    t.enu('status', ['recording', 'stopped']).notNullable();
    t.bigInteger('started_at').notNullable();
    t.bigInteger('stopped_at');
    t.bigInteger('deleted_at');
    t.index(['record_id', 'started_at', 'id'], 'recordings_record_idx');
    t.index(['event_id'], 'recordings_event_idx');
    // Two interviewers starting at once cannot both record one event.
    t.unique(['event_id'], {
      indexName: 'recordings_one_active_unique',
      predicate: knex.whereRaw("status = 'recording'"),
    });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('recordings');
}
