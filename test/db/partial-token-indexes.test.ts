import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';
import { accessTokenRow, createOAuthTenant } from '../support/oauth-fixtures.js';

/** Migration 0019: the columns only some tokens carry are indexed only where they are set. */
describeEachDialect('partial token indexes', (database) => {
  const partial = [
    ['access_tokens', 'access_tokens_code_idx', 'auth_code_hash'],
    ['access_tokens', 'access_tokens_family_idx', 'refresh_family_id'],
    ['access_tokens', 'access_tokens_user_idx', 'user_id'],
    ['audit_events', 'audit_events_actor_idx', 'actor_user_id'],
  ] as const;

  /** The index's definition as the engine stores it. */
  async function definition(name: string): Promise<string> {
    const { db, dialect } = database();
    const row =
      dialect === 'postgres'
        ? await db('pg_indexes')
            .where({ indexname: name, schemaname: db.raw('current_schema()') })
            .first<{ sql: string }>('indexdef as sql')
        : await db('sqlite_master').where({ type: 'index', name }).first<{ sql: string }>('sql');
    assert.ok(row, `index ${name} exists`);
    return row.sql;
  }

  /** Whether the engine's plan for `sql` reads `index`. */
  async function planUses(sql: string, binding: string, index: string): Promise<boolean> {
    const { db, dialect } = database();
    if (dialect === 'postgres') {
      return db.transaction(async (tx) => {
        // Tiny test tables would be scanned whole; the question is whether the index can serve.
        await tx.raw('SET LOCAL enable_seqscan = off');
        const plan = await tx.raw<{ rows: Array<{ 'QUERY PLAN': string }> }>(`EXPLAIN ${sql}`, [
          binding,
        ]);
        return plan.rows.some((row) => row['QUERY PLAN'].includes(index));
      });
    }
    const plan = await db.raw<Array<{ detail: string }>>(`EXPLAIN QUERY PLAN ${sql}`, [binding]);
    return plan.some((row) => row.detail.includes(index));
  }

  it('indexes each column only where it is set', async () => {
    for (const [, name, column] of partial) {
      const sql = await definition(name);
      assert.match(sql, new RegExp(`where.*${column}.* is not null`, 'i'), sql);
    }
  });

  it('still serves lookups by each column from its index', async () => {
    for (const [table, name, column] of partial) {
      const sql = `select * from ${table} where ${column} = ?`;
      assert.ok(await planUses(sql, 'x', name), `${sql} uses ${name}`);
    }
  });

  it('still cascades a deleted user to every token of theirs and of their apps', async () => {
    const { db } = database();
    const tenant = await createOAuthTenant(db, systemClock, 'partial');
    const users = accessTokenRow(tenant.app.id, tenant.user.id);
    const apps = accessTokenRow(tenant.app.id);
    await db('access_tokens').insert([users, apps]);
    await db('users').where({ id: tenant.user.id }).delete();
    const left = await db('access_tokens').whereIn('jti', [users.jti, apps.jti]).pluck('jti');
    // The app belongs to the deleted user too: its cascade takes the app token with it.
    assert.deepEqual(left, []);
  });
});
