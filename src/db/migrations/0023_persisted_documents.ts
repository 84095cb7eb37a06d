import type { Knex } from 'knex';

/**
 * Persisted GraphQL documents (DESIGN §9), by the SHA-256 of their text: registered ahead of
 * time with `cli graphql persist` (`registered`, kept until removed) or by a client's automatic
 * persisted query (`automatic`, the oldest evicted first when the table is full). In the
 * database, so that a document registered through one process runs by its hash in every other.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('persisted_documents', (t) => {
    // Lower-case hexadecimal SHA-256 of `document`, as UTF-8.
    t.string('hash', 64).primary();
    t.text('document').notNullable();
    t.enu('source', ['registered', 'automatic']).notNullable();
    t.bigInteger('registered_at').notNullable();
    // What eviction reads: the oldest automatic documents.
    t.index(['source', 'registered_at'], 'persisted_documents_source_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('persisted_documents');
}
