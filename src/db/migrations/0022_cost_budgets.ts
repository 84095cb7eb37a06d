import type { Knex } from 'knex';

/**
 * The GraphQL gateway's rolling cost budget per client (DESIGN §9, src/cost-budgets/): each
 * app's own budget where its owner or an operator set one (else the configured default), a row
 * per client that lease grants lock to take turns, and the leases themselves: the cost a process
 * was allowed to admit for that client from `granted_at` on, reduced to what it did admit once
 * the lease has run out.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('app_cost_budgets', (t) => {
    t.string('app_id', 36).primary().references('id').inTable('apps').onDelete('CASCADE');
    t.integer('units').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  // No foreign key: a client is charged by the id its verified token names, and its rows here
  // run out with the window whether or not the app still exists.
  await knex.schema.createTable('cost_budget_clients', (t) => {
    t.string('app_id', 36).primary();
    t.bigInteger('purged_at').notNullable();
  });
  await knex.schema.createTable('cost_budget_leases', (t) => {
    t.bigIncrements('id');
    t.string('app_id', 36).notNullable();
    t.bigInteger('granted_at').notNullable();
    t.integer('amount').notNullable();
    t.index(['app_id', 'granted_at'], 'cost_budget_leases_app_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('cost_budget_leases');
  await knex.schema.dropTable('cost_budget_clients');
  await knex.schema.dropTable('app_cost_budgets');
}
