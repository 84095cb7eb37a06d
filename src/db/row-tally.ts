import type { Knex } from 'knex';
import { dialectOf } from './dialects/index.js';
import {
  groupColumns,
  groupValue,
  TALLY_COUNT_COLUMN,
  TALLY_SLOT_COLUMN,
  type RowTally,
} from './dialects/row-tally.js';

export type { RowTally } from './dialects/row-tally.js';
export { TALLY_COUNT_COLUMN } from './dialects/row-tally.js';

/**
 * Starts keeping `tally` (see src/db/dialects/row-tally.ts) on an empty tally table: creates
 * the engine's triggers, then counts the rows already there. For a migration, which runs in one
 * transaction, so no row is written between the two.
 */
export async function keepRowTally(knex: Knex, tally: RowTally): Promise<void> {
  for (const statement of dialectOf(knex).tallyTriggers(tally).create) await knex.raw(statement);
  const values = tally.groups.map((group) => groupValue(group, 'r')).join(', ');
  await knex.raw(
    `INSERT INTO ${tally.table} (${groupColumns(tally)}, ${TALLY_SLOT_COLUMN}, ${TALLY_COUNT_COLUMN})
     SELECT ${values}, 0, count(*) FROM ${tally.source} r GROUP BY ${values}`,
  );
}

/** Stops keeping `tally`: drops its triggers (the migration drops its table). */
export async function stopRowTally(knex: Knex, tally: RowTally): Promise<void> {
  for (const statement of dialectOf(knex).tallyTriggers(tally).drop) await knex.raw(statement);
}
