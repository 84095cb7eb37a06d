import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('signing_keys', (t) => {
    t.string('kid', 64).primary();
    t.enu('alg', ['ES256', 'RS256']).notNullable();
    t.text('public_jwk').notNullable();
    t.text('private_key_encrypted').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('superseded_at');
    t.bigInteger('retire_after');
    // Newest active key per algorithm, and the JWKS listing of keys not yet retired.
    t.index(['alg', 'created_at'], 'signing_keys_alg_created_idx');
    t.index(['retire_after'], 'signing_keys_retire_after_idx');
  });

  await knex.schema.createTable('authorization_codes', (t) => {
    t.string('code_hash', 64).primary();
    t.string('app_id', 36).notNullable().references('id').inTable('apps').onDelete('CASCADE');
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('redirect_uri', 2048).notNullable();
    t.string('scope', 500).notNullable();
    t.string('code_challenge', 128);
    t.string('code_challenge_method', 10);
    t.string('nonce', 500);
    t.string('employer_id', 36).references('id').inTable('employers').onDelete('CASCADE');
    t.bigInteger('auth_time').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('consumed_at');
    t.bigInteger('created_at').notNullable();
    t.index(['expires_at'], 'authorization_codes_expires_idx');
    t.index(['app_id'], 'authorization_codes_app_idx');
    t.index(['user_id'], 'authorization_codes_user_idx');
  });

  await knex.schema.createTable('refresh_token_families', (t) => {
    t.string('id', 36).primary();
    t.string('app_id', 36).notNullable().references('id').inTable('apps').onDelete('CASCADE');
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('scope', 500).notNullable();
    t.string('auth_code_hash', 64);
    t.bigInteger('auth_time').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('revoked_at');
    t.string('revoked_reason', 64);
    // Code replay revokes everything issued from the code.
    t.index(['auth_code_hash'], 'refresh_families_code_idx');
    t.index(['app_id', 'user_id'], 'refresh_families_app_user_idx');
    t.index(['user_id'], 'refresh_families_user_idx');
  });

  await knex.schema.createTable('refresh_tokens', (t) => {
    t.string('token_hash', 64).primary();
    t.string('family_id', 36)
      .notNullable()
      .references('id')
      .inTable('refresh_token_families')
      .onDelete('CASCADE');
    t.string('employer_id', 36).references('id').inTable('employers').onDelete('CASCADE');
    t.bigInteger('issued_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('consumed_at');
    t.index(['family_id'], 'refresh_tokens_family_idx');
    t.index(['expires_at'], 'refresh_tokens_expires_idx');
  });

  await knex.schema.createTable('access_tokens', (t) => {
    t.string('jti', 64).primary();
    t.string('app_id', 36).notNullable().references('id').inTable('apps').onDelete('CASCADE');
    t.string('user_id', 36).references('id').inTable('users').onDelete('CASCADE');
    t.string('employer_id', 36).references('id').inTable('employers').onDelete('CASCADE');
    t.string('scope', 500).notNullable();
    t.string('auth_code_hash', 64);
    t.string('refresh_family_id', 36)
      .references('id')
      .inTable('refresh_token_families')
      .onDelete('CASCADE');
    t.bigInteger('issued_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('revoked_at');
    t.index(['auth_code_hash'], 'access_tokens_code_idx');
    t.index(['refresh_family_id'], 'access_tokens_family_idx');
    t.index(['app_id'], 'access_tokens_app_idx');
    t.index(['user_id'], 'access_tokens_user_idx');
    t.index(['expires_at'], 'access_tokens_expires_idx');
  });

  await knex.schema.createTable('consents', (t) => {
    t.string('id', 36).primary();
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('app_id', 36).notNullable().references('id').inTable('apps').onDelete('CASCADE');
    t.string('scope_set', 500).notNullable();
    t.bigInteger('granted_at').notNullable();
    t.unique(['user_id', 'app_id', 'scope_set'], { indexName: 'consents_user_app_scope_unique' });
    t.index(['app_id'], 'consents_app_idx');
  });

  await knex.schema.createTable('browser_sessions', (t) => {
    t.string('id_hash', 64).primary();
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('csrf_secret', 64).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_seen_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.index(['user_id'], 'browser_sessions_user_idx');
    t.index(['expires_at'], 'browser_sessions_expires_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('browser_sessions');
  await knex.schema.dropTable('consents');
  await knex.schema.dropTable('access_tokens');
  await knex.schema.dropTable('refresh_tokens');
  await knex.schema.dropTable('refresh_token_families');
  await knex.schema.dropTable('authorization_codes');
  await knex.schema.dropTable('signing_keys');
}
