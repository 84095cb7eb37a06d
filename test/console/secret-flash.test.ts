import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../src/clock.js';
import { SecretFlash } from '../../src/console/secret-flash.js';
import { SecretRevealStore } from '../../src/console/secret-reveal-store.js';
import { openDatabase } from '../../src/db/database.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { describeEachDialect } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';
import { insertTenant } from '../support/interview-fixtures.js';

describeEachDialect('one-time secret display', (database) => {
  const clock = new ManualClock();
  const box = new SecretBox('test-secret-0123456789abcdef0123456789', 'secret-reveals');
  let sessionIdHash: string;

  before(async () => {
    const { db } = database();
    const { userId } = await insertTenant(db, 'flash');
    sessionIdHash = randomUUID().replaceAll('-', '');
    await db('browser_sessions').insert({
      id_hash: sessionIdHash,
      user_id: userId,
      csrf_secret: 'x',
      created_at: clock.now(),
      last_seen_at: clock.now(),
      expires_at: clock.now() + 3_600_000,
    });
  });

  it('hands a secret out once, from any process, and stores it sealed', async () => {
    const { db, config } = database();
    await new SecretFlash(new SecretRevealStore(db), box, clock).put(
      sessionIdHash,
      'client-a',
      'the-secret',
    );
    const [row] = await db('secret_reveals');
    assert.ok(!JSON.stringify(row).includes('the-secret'), 'sealed at rest');

    // Another process: its own connection pool, the same database.
    const other = openDatabase(config, silentLogger);
    try {
      assert.equal(
        await new SecretFlash(new SecretRevealStore(other), box, clock).take(
          sessionIdHash,
          'client-a',
        ),
        'the-secret',
      );
    } finally {
      await other.destroy();
    }
    assert.equal(
      await new SecretFlash(new SecretRevealStore(db), box, clock).take(sessionIdHash, 'client-a'),
      undefined,
    );
  });

  it('forgets a secret after five minutes', async () => {
    const { db } = database();
    const flash = new SecretFlash(new SecretRevealStore(db), box, clock);
    await flash.put(sessionIdHash, 'client-b', 'later');
    clock.advance(5 * 60 * 1000);
    assert.equal(await flash.take(sessionIdHash, 'client-b'), undefined);
  });
});
