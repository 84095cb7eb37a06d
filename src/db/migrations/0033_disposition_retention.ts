import type { Knex } from 'knex';

/**
 * The disposition retention (DISPOSITION_RETENTION_DAYS) purges `partner_dispositions` by the
 * instant each was received, oldest first, a bounded batch at a time: this index lets each batch
 * read only the rows it deletes instead of scanning the table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('partner_dispositions', (t) => {
    t.index(['received_at'], 'partner_dispositions_received_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('partner_dispositions', (t) => {
    t.dropIndex(['received_at'], 'partner_dispositions_received_idx');
  });
}
