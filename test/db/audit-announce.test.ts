import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { AuditLog } from '../../src/audit/audit-log.js';
import { AuditStore } from '../../src/audit/audit-store.js';
import { systemClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';

/**
 * An audit entry stored with a transaction is announced in the log once, when the transaction
 * commits: never for an attempt the database undid (the helper runs it again) or rolled back.
 */
describeEachDialect('audit entries in the log', (database) => {
  it('are announced once their transaction commits, and never for one that rolled back', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const store = new AuditStore(database().db);
    const audit = new AuditLog(store, systemClock, pino({ level: 'info' }, sink));
    const announced = (type: string) => lines.filter((line) => line.includes(type)).length;

    await assert.rejects(
      store.inTransaction(async (_store, tx) => {
        await audit.record({ type: 'consent.denied' }, tx);
        throw new Error('undone');
      }),
    );
    await store.inTransaction(async (_store, tx) => {
      await audit.record({ type: 'consent.granted' }, tx);
      assert.equal(announced('consent.granted'), 0, 'not before the commit');
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(announced('consent.denied'), 0);
    assert.equal(announced('consent.granted'), 1);
  });
});
