import type { Knex } from 'knex';

/**
 * When a user proved they read their mail, and the single-use links mailed to them: email
 * verification and password reset. A link's token is stored only as its SHA-256.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.bigInteger('email_verified_at');
  });
  await knex.schema.createTable('email_tokens', (t) => {
    t.string('id_hash', 64).primary();
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.enu('purpose', ['verify_email', 'reset_password']).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    /** Set once, by the one request that used the link. */
    t.bigInteger('used_at');
    t.index(['user_id', 'purpose'], 'email_tokens_user_purpose_idx');
    t.index(['expires_at'], 'email_tokens_expires_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_tokens');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('email_verified_at');
  });
}
