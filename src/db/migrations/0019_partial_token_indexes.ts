import type { Knex } from 'knex';

/**
 * The access-token columns that only some tokens carry (the code or refresh family a user grant
 * issued them from, the user) and the audit column that app-issued entries leave empty are
 * indexed only where they are set. Every lookup by them is by equality, which implies the column
 * is set, so both engines still use these indexes for it (cascades from users and families
 * included); and a client_credentials token, which has none of them, no longer writes three
 * index entries holding NULL, nor its audit row a fourth.
 */
const PARTIAL: ReadonlyArray<[table: string, name: string, columns: string[], setColumn: string]> =
  [
    ['access_tokens', 'access_tokens_code_idx', ['auth_code_hash'], 'auth_code_hash'],
    ['access_tokens', 'access_tokens_family_idx', ['refresh_family_id'], 'refresh_family_id'],
    ['access_tokens', 'access_tokens_user_idx', ['user_id'], 'user_id'],
    ['audit_events', 'audit_events_actor_idx', ['actor_user_id', 'occurred_at'], 'actor_user_id'],
  ];

export async function up(knex: Knex): Promise<void> {
  for (const [table, name, columns, setColumn] of PARTIAL) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(columns, name);
      t.index(columns, name, { predicate: knex.whereNotNull(setColumn) });
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, name, columns] of PARTIAL) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(columns, name);
      t.index(columns, name);
    });
  }
}
