import type { Knex } from 'knex';

/**
 * Calendar mails of interviews (src/calendar-mail): what each event's participants were last
 * sent (the iCalendar SEQUENCE and who holds an invitation), the durable outbox of mails that a
 * change writes in its own transaction (invitations, updates, cancellations, reminders), and the
 * per-app switches.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('calendar_invitations', (t) => {
    t.string('event_id', 36)
      .primary()
      .references('id')
      .inTable('interview_events')
      .onDelete('CASCADE');
    // The SEQUENCE of the last invitation, update or cancellation mailed for the event.
    t.integer('sequence').notNullable();
    // JSON: the event and the participants holding its invitation, as last mailed.
    t.text('snapshot').notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  await knex.schema.createTable('calendar_mails', (t) => {
    t.bigIncrements('id');
    t.string('event_id', 36)
      .notNullable()
      .references('id')
      .inTable('interview_events')
      .onDelete('CASCADE');
    t.enu('kind', ['invitation', 'update', 'cancellation', 'reminder']).notNullable();
    t.string('recipient_email', 254).notNullable();
    t.enu('recipient_role', ['interviewee', 'interviewer']).notNullable();
    // Whose interviewee lobby link the mail carries (the interviewee's own); null for interviewers.
    t.string('interviewee_id', 36);
    t.integer('sequence').notNullable();
    // JSON: the event as it was when the mail was written (no link, no token: those are read,
    // sealed, when it is sent).
    t.text('snapshot').notNullable();
    // A reminder: how long before the start it is for, in minutes.
    t.integer('minutes_before');
    t.enu('status', ['pending', 'sent', 'skipped', 'failed']).notNullable();
    t.integer('attempt_count').notNullable();
    t.bigInteger('due_at').notNullable();
    // A process sending it holds it until then; after a crash the lease runs out.
    t.bigInteger('leased_until');
    t.string('last_error', 500);
    t.bigInteger('sent_at');
    t.bigInteger('created_at').notNullable();
    t.index(['event_id', 'status'], 'calendar_mails_event_idx');
  });
  // What the senders claim from: only mails still to send.
  await knex.schema.alterTable('calendar_mails', (t) => {
    t.index(['due_at'], 'calendar_mails_due_idx', {
      predicate: knex.whereRaw("status = 'pending'"),
    });
  });

  await knex.schema.createTable('calendar_mail_app_settings', (t) => {
    t.string('app_id', 36).primary().references('id').inTable('apps').onDelete('CASCADE');
    // Invitations, updates and cancellations; reminders. No row: both on.
    t.boolean('invitations').notNullable();
    t.boolean('reminders').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('calendar_mail_app_settings');
  await knex.schema.dropTable('calendar_mails');
  await knex.schema.dropTable('calendar_invitations');
}
