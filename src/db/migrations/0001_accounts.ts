import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.string('id', 36).primary();
    t.string('email', 254).notNullable();
    // Lower-cased copy: sign-in and uniqueness ignore the letter case of addresses.
    t.string('email_normalized', 254).notNullable().unique();
    t.string('name', 200);
    t.string('password_hash', 255).notNullable();
    t.boolean('email_verified').notNullable().defaultTo(false);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });

  await knex.schema.createTable('employers', (t) => {
    t.string('id', 36).primary();
    t.string('name', 200).notNullable();
    t.bigInteger('created_at').notNullable();
  });

  await knex.schema.createTable('memberships', (t) => {
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('employer_id', 36)
      .notNullable()
      .references('id')
      .inTable('employers')
      .onDelete('CASCADE');
    t.enu('role', ['admin', 'member']).notNullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['user_id', 'employer_id']);
    t.index(['employer_id'], 'memberships_employer_idx');
  });

  await knex.schema.createTable('apps', (t) => {
    t.string('id', 36).primary();
    t.string('client_id', 64).notNullable().unique();
    t.string('owner_user_id', 36)
      .notNullable()
      .references('id')
      .inTable('users')
      .onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.enu('client_type', ['confidential', 'public']).notNullable();
    t.string('client_secret_hash', 64);
    t.bigInteger('secret_updated_at');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['owner_user_id'], 'apps_owner_idx');
  });

  await knex.schema.createTable('app_redirect_uris', (t) => {
    t.increments('id').primary();
    t.string('app_id', 36).notNullable().references('id').inTable('apps').onDelete('CASCADE');
    t.string('uri', 2048).notNullable();
    t.integer('position').notNullable();
    t.bigInteger('created_at').notNullable();
    // Exact-match lookup of a redirect_uri for an app, and no duplicate registrations.
    t.unique(['app_id', 'uri'], { indexName: 'app_redirect_uris_app_uri_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('app_redirect_uris');
  await knex.schema.dropTable('apps');
  await knex.schema.dropTable('memberships');
  await knex.schema.dropTable('employers');
  await knex.schema.dropTable('users');
}
