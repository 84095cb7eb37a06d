import assert from 'node:assert/strict';
import { describeEachDialect } from '../support/databases.js';

/**
 * Database errors reach the log (their message, not their detail): the message must not carry
 * the statement's bound values, which hold emails, names and secrets.
 */
describeEachDialect('database error messages', (database) => {
  it('do not carry the values of the statement that failed', async () => {
    const { db } = database();
    await db.schema.createTable('error_message_probe', (table) => table.text('value').primary());
    const secret = `secret-${Date.now()}`;
    await db('error_message_probe').insert({ value: secret });
    const failure = await db('error_message_probe')
      .insert({ value: secret })
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    assert.ok(failure, 'the duplicate was refused');
    assert.ok(!failure.message.includes(secret), failure.message);
  });
});
