import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { composeDispositionSync } from '../../src/disposition-sync/compose.js';
import { DispositionRetention } from '../../src/disposition-sync/disposition-retention.js';
import { DispositionStore } from '../../src/disposition-sync/disposition-store.js';
import type { PartnerDispositionInput } from '../../generated/graphql.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { distinctDispositions } from './fixtures.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 1, 9, 0);

describeEachDialect('Disposition Sync: DISPOSITION_RETENTION_DAYS', (database) => {
  let appId: string;
  let employerId: string;

  beforeEach(async () => {
    const { db } = database();
    await db('partner_dispositions').delete();
    ({ appId, employerId } = await insertTenant(db, 'retention'));
  });

  /** Sends `count` distinct dispositions at the clock's now, named by `prefix`. */
  async function receive(clock: ManualClock, prefix: string, count: number) {
    const { dispositions } = composeDispositionSync(
      testSharedDependencies(database().db, { clock }),
    );
    const sent = await dispositions.send(
      { appId, employerId },
      distinctDispositions(count, prefix) as unknown as PartnerDispositionInput[],
    );
    assert.equal(sent.numberGoodDispositions, count);
  }

  async function storedPrefixes(): Promise<string[]> {
    const rows: Array<{ identified_by: string }> = await database()
      .db('partner_dispositions')
      .select('identified_by');
    return rows.map((row) => JSON.parse(row.identified_by).indeedApplyID.split('-')[0]).sort();
  }

  it('purges the dispositions received longer ago than the retention and keeps the recent ones', async () => {
    const clock = new ManualClock(START);
    await receive(clock, 'old', 3);
    clock.advance(20 * DAY);
    await receive(clock, 'recent', 2);
    const sync = composeDispositionSync(
      testSharedDependencies(database().db, { clock, env: { DISPOSITION_RETENTION_DAYS: '30' } }),
    );

    clock.set(START + 30 * DAY);
    assert.equal(await sync.purgeNow(), 0, 'exactly 30 days old is still kept');
    clock.set(START + 30 * DAY + 1);
    assert.equal(await sync.purgeNow(), 3);
    assert.deepEqual(await storedPrefixes(), ['recent', 'recent']);
    assert.equal(await sync.purgeNow(), 0, 'nothing more is due');

    clock.set(START + 50 * DAY + 1);
    assert.equal(await sync.purgeNow(), 2);
    assert.deepEqual(await storedPrefixes(), []);
  });

  it('keeps a year by default', async () => {
    const clock = new ManualClock(START);
    await receive(clock, 'kept', 1);
    const sync = composeDispositionSync(testSharedDependencies(database().db, { clock }));
    clock.set(START + 365 * DAY);
    assert.equal(await sync.purgeNow(), 0);
    clock.advance(1);
    assert.equal(await sync.purgeNow(), 1);
  });

  it('deletes at most batch × rounds in one purge, the oldest first', async () => {
    const clock = new ManualClock(START);
    await receive(clock, 'first', 4);
    clock.advance(DAY);
    await receive(clock, 'second', 3);
    clock.advance(100 * DAY);
    const retention = new DispositionRetention(
      new DispositionStore(database().db),
      clock,
      30 * DAY,
      { batch: 2, rounds: 2 },
    );
    assert.equal(await retention.purgeNow(), 4);
    assert.deepEqual(await storedPrefixes(), ['second', 'second', 'second']);
    assert.equal(await retention.purgeNow(), 3, 'the next purge goes on where it stopped');
    assert.equal(await retention.purgeNow(), 0);
  });

  it('lets several processes purge at once: each disposition is deleted once', async () => {
    const clock = new ManualClock(START);
    for (let round = 0; round < 4; round++) await receive(clock, `p${round}`, 25);
    clock.advance(400 * DAY);
    const purgers = Array.from(
      { length: 3 },
      () =>
        new DispositionRetention(new DispositionStore(database().db), clock, 365 * DAY, {
          batch: 7,
          rounds: 100,
        }),
    );
    const counts = await Promise.all(purgers.map((purger) => purger.purgeNow()));
    assert.equal(
      counts.reduce((sum, count) => sum + count, 0),
      100,
    );
    assert.deepEqual(await storedPrefixes(), []);
  });
});
