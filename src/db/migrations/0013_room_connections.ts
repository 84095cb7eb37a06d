import type { Knex } from 'knex';

/**
 * Who is in each event's interview room, one row per open browser connection, shared by every
 * process so that a record's start time can be decided from what all of them see; and when an
 * interview's room last became empty, for the grace period after which the interview ends.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('room_connections', (t) => {
    t.string('id', 36).primary();
    t.string('event_id', 36)
      .notNullable()
      .references('id')
      .inTable('interview_events')
      .onDelete('CASCADE');
    t.enu('role', ['interviewer', 'interviewee']).notNullable();
    /** The interviewer's or the interviewee's id. */
    t.string('participant_id', 36).notNullable();
    t.boolean('video').notNullable();
    t.bigInteger('connected_at').notNullable();
    /** Moved forward by the connection's process while it lives; an old one was orphaned. */
    t.bigInteger('seen_at').notNullable();
    t.index(['event_id'], 'room_connections_event_idx');
    t.index(['seen_at'], 'room_connections_seen_idx');
  });
  await knex.schema.alterTable('interview_records', (t) => {
    t.bigInteger('room_emptied_at');
    t.index(['room_emptied_at'], 'interview_records_room_emptied_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('interview_records', (t) => {
    t.dropIndex(['room_emptied_at'], 'interview_records_room_emptied_idx');
    t.dropColumn('room_emptied_at');
  });
  await knex.schema.dropTable('room_connections');
}
