import type { Knex } from 'knex';

/**
 * A stopped recording is rewritten once so that players can seek it (Duration and Cues, see
 * src/recordings/recording-finalisation.ts). `finalised_at` says it is final (its webhook is
 * told in the same transaction); `seekable` says the file served is the rewritten one,
 * `<recording id>.seekable.webm`, and `bytes` is then that file's length. Recordings stopped
 * before this migration were already announced: they count as final, as they are.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('recordings', (t) => {
    t.bigInteger('finalised_at');
    t.boolean('seekable').notNullable().defaultTo(false);
    // The sweeper looks for stopped recordings left unfinalised by a crash.
    t.index(['status', 'finalised_at'], 'recordings_unfinalised_idx');
  });
  await knex('recordings')
    .where({ status: 'stopped' })
    .update({ finalised_at: knex.raw('coalesce(stopped_at, started_at)') });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('recordings', (t) => {
    t.dropIndex(['status', 'finalised_at'], 'recordings_unfinalised_idx');
    t.dropColumn('finalised_at');
    t.dropColumn('seekable');
  });
}
