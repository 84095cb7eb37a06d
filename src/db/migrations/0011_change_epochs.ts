import type { Knex } from 'knex';
import { ACCOUNTS_EPOCH, CHANGE_EPOCHS_TABLE } from '../change-epochs.js';
import { dialectOf } from '../dialects/index.js';

/** Tables whose updates and deletes move the accounts epoch (src/db/change-epochs.ts). */
const WATCHED = ['apps', 'memberships'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(CHANGE_EPOCHS_TABLE, (t) => {
    t.string('name', 40).primary();
    t.bigInteger('epoch').notNullable();
  });
  await knex(CHANGE_EPOCHS_TABLE).insert({ name: ACCOUNTS_EPOCH, epoch: 1 });
  for (const statement of dialectOf(knex).epochTriggers(WATCHED, ACCOUNTS_EPOCH).create) {
    await knex.raw(statement);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of dialectOf(knex).epochTriggers(WATCHED, ACCOUNTS_EPOCH).drop) {
    await knex.raw(statement);
  }
  await knex.schema.dropTable(CHANGE_EPOCHS_TABLE);
}
