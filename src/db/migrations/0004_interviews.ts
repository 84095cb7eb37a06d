import type { Knex } from 'knex';

const EVENT_STATUSES = ['SCHEDULED', 'STARTED', 'ENDED', 'ARCHIVED', 'CANCELLED'];
const INTERVIEWEE_STATUSES = [
  'RSVPED',
  'CHECKED_IN',
  'INTERVIEWING',
  'INTERVIEWED',
  'NOT_INTERVIEWED',
  'REQUEUED',
  'CANCELLED',
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('interview_events', (t) => {
    t.string('id', 36).primary();
    t.string('employer_id', 36)
      .notNullable()
      .references('id')
      .inTable('employers')
      .onDelete('CASCADE');
    t.string('created_by_app_id', 36)
      .notNullable()
      .references('id')
      .inTable('apps')
      .onDelete('CASCADE');
    t.string('created_by_user_id', 36).references('id').inTable('users').onDelete('SET NULL');
    t.string('title', 500).notNullable();
    t.bigInteger('start_at').notNullable();
    t.integer('start_offset_minutes').notNullable();
    t.bigInteger('end_at').notNullable();
    t.integer('end_offset_minutes').notNullable();
    t.string('timezone', 64).notNullable();
    t.string('language_code', 3);
    t.string('country_code', 2);
    t.enu('media_type', ['VIDEO', 'PHONE']).notNullable();
    t.enu('status', EVENT_STATUSES).notNullable();
    t.string('ats_name', 200).notNullable();
    t.string('employer_name', 200);
    t.bigInteger('started_at');
    t.bigInteger('ended_at');
    t.bigInteger('archived_at');
    t.bigInteger('cancelled_at');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    // Keyset pagination: one index per sort order the API offers, each ending in id.
    t.index(['employer_id', 'start_at', 'id'], 'interview_events_employer_start_idx');
    t.index(['employer_id', 'end_at', 'id'], 'interview_events_employer_end_idx');
    t.index(['employer_id', 'start_at', 'end_at', 'id'], 'interview_events_employer_start_end_idx');
    t.index(['employer_id', 'end_at', 'start_at', 'id'], 'interview_events_employer_end_start_idx');
    // Time-driven transitions: the sweeper looks for events whose end passed or that ended long ago.
    t.index(['status', 'end_at'], 'interview_events_status_end_idx');
    t.index(['status', 'ended_at'], 'interview_events_status_ended_idx');
  });

  await knex.schema.createTable('interviewers', (t) => {
    t.string('id', 36).primary();
    t.string('event_id', 36)
      .notNullable()
      .references('id')
      .inTable('interview_events')
      .onDelete('CASCADE');
    t.string('email', 254).notNullable();
    t.string('email_normalized', 254).notNullable();
    t.string('name', 200);
    t.string('user_id', 36).references('id').inTable('users').onDelete('SET NULL');
    t.integer('position').notNullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['event_id', 'email_normalized'], { indexName: 'interviewers_event_email_unique' });
    t.index(['event_id', 'position'], 'interviewers_event_position_idx');
  });

  await knex.schema.createTable('interviewees', (t) => {
    t.string('id', 36).primary();
    // Unique: an event has no interviewee or exactly one.
    t.string('event_id', 36)
      .notNullable()
      .unique({ indexName: 'interviewees_event_unique' })
      .references('id')
      .inTable('interview_events')
      .onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('email', 254).notNullable();
    t.enu('status', INTERVIEWEE_STATUSES).notNullable();
    t.string('job_employer_job_id', 200);
    t.string('job_title', 500);
    t.string('job_location', 500);
    t.bigInteger('checked_in_at');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  await knex.schema.createTable('interview_records', (t) => {
    t.string('id', 36).primary();
    t.string('event_id', 36)
      .notNullable()
      .references('id')
      .inTable('interview_events')
      .onDelete('CASCADE');
    t.string('interviewee_id', 36)
      .notNullable()
      .references('id')
      .inTable('interviewees')
      .onDelete('CASCADE');
    t.bigInteger('start_at');
    t.bigInteger('end_at');
    t.string('recording_url', 2048);
    t.bigInteger('created_at').notNullable();
    t.index(['interviewee_id', 'created_at', 'id'], 'interview_records_interviewee_idx');
    t.index(['event_id'], 'interview_records_event_idx');
    // Two interviewers admitting at once cannot open two records for one interviewee.
    t.unique(['interviewee_id'], {
      indexName: 'interview_records_one_open_unique',
      predicate: knex.whereNull('end_at'),
    });
  });

  await knex.schema.createTable('interview_outcomes', (t) => {
    t.string('id', 36).primary();
    t.string('record_id', 36)
      .notNullable()
      .references('id')
      .inTable('interview_records')
      .onDelete('CASCADE');
    t.string('interviewer_id', 36)
      .notNullable()
      .references('id')
      .inTable('interviewers')
      .onDelete('CASCADE');
    t.enu('decision', ['YES', 'NO', 'MAYBE', 'SKIP']);
    t.text('note_text');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['record_id', 'interviewer_id'], { indexName: 'interview_outcomes_record_unique' });
    t.index(['interviewer_id'], 'interview_outcomes_interviewer_idx');
  });

  await knex.schema.createTable('lobby_tokens', (t) => {
    t.string('id', 36).primary();
    t.string('event_id', 36)
      .notNullable()
      .references('id')
      .inTable('interview_events')
      .onDelete('CASCADE');
    t.string('interviewee_id', 36).references('id').inTable('interviewees').onDelete('CASCADE');
    t.enu('role', ['landing', 'interviewer', 'interviewee']).notNullable();
    t.string('token_hash', 64).notNullable().unique({ indexName: 'lobby_tokens_hash_unique' });
    t.text('token_encrypted').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['event_id', 'role'], 'lobby_tokens_event_role_idx');
    t.index(['interviewee_id'], 'lobby_tokens_interviewee_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('lobby_tokens');
  await knex.schema.dropTable('interview_outcomes');
  await knex.schema.dropTable('interview_records');
  await knex.schema.dropTable('interviewees');
  await knex.schema.dropTable('interviewers');
  await knex.schema.dropTable('interview_events');
}
