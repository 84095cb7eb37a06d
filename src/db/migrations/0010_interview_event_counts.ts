import type { Knex } from 'knex';
import { keepRowTally, stopRowTally, type RowTally } from '../row-tally.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How many events each employer has: findVirtualInterviewEvents' unfiltered totalCount. */
const EVENTS_PER_EMPLOYER: RowTally = {
  source: 'interview_events',
  table: 'interview_event_counts',
  groups: [{ column: 'employer_id', of: 'employer_id' }],
};

/**
 * How many of an employer's events start on each UTC day (day 0 is 1970-01-01): a time-filtered
 * totalCount sums the whole days of its range and counts only the events of the partial days
 * at its edges.
 */
const EVENTS_PER_START_DAY: RowTally = {
  source: 'interview_events',
  table: 'interview_event_start_day_counts',
  groups: [
    { column: 'employer_id', of: 'employer_id' },
    { column: 'start_day', of: 'start_at', per: DAY_MS },
  ],
};

/**
 * Counts of interview events kept by the database as events are inserted, rescheduled and
 * deleted (src/db/row-tally.ts), so that counting an employer's events does not read them all.
 * No foreign key to employers: deleting an employer deletes its events, whose triggers bring
 * its counts to zero; a key would make that order of deletions matter.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(EVENTS_PER_EMPLOYER.table, (t) => {
    t.string('employer_id', 36).notNullable();
    t.integer('slot').notNullable();
    t.bigInteger('row_count').notNullable();
    t.primary(['employer_id', 'slot']);
  });
  await knex.schema.createTable(EVENTS_PER_START_DAY.table, (t) => {
    t.string('employer_id', 36).notNullable();
    t.bigInteger('start_day').notNullable();
    t.integer('slot').notNullable();
    t.bigInteger('row_count').notNullable();
    t.primary(['employer_id', 'start_day', 'slot']);
  });
  await keepRowTally(knex, EVENTS_PER_EMPLOYER);
  await keepRowTally(knex, EVENTS_PER_START_DAY);
}

export async function down(knex: Knex): Promise<void> {
  for (const tally of [EVENTS_PER_START_DAY, EVENTS_PER_EMPLOYER]) {
    await stopRowTally(knex, tally);
    await knex.schema.dropTable(tally.table);
  }
}
