import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { ChangeEpochStore } from '../../src/db/change-epochs.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { runConcurrently, tally } from '../support/concurrency.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { testAccounts } from '../support/compose.js';
import { silentLogger } from '../support/logger.js';
import { createOAuthTenant, type Observed, type OAuthTenant } from '../support/oauth-fixtures.js';
import { RAISED_RATE_LIMITS } from '../support/service-process.js';
import { startTestService } from '../support/service.js';
import { TokenRequests, jtiOf } from '../support/token-requests.js';

const IN_FLIGHT = 50;

/** The service's database as production opens it: on SQLite with its reader connections. */
function withReaders(database: TestDatabase): TestDatabase {
  const { config } = database;
  return config.client === 'sqlite'
    ? { ...database, config: { ...config, readConnections: 4 } }
    : database;
}

/** Statements the service sends to the apps and memberships tables while `work` runs. */
async function credentialReadsDuring<T>(
  db: Database,
  work: () => Promise<T>,
): Promise<{ result: T; reads: number }> {
  let reads = 0;
  const listener = (query: { sql: string }) => {
    if (/^select .* from .(apps|memberships)./i.test(query.sql)) reads += 1;
  };
  db.on('query', listener);
  try {
    return { result: await work(), reads };
  } finally {
    db.off('query', listener);
  }
}

/**
 * The credential cache (src/accounts/credential-cache.ts) serves client_credentials from memory;
 * changes made by another process (here a second database handle, as the CLI or another server
 * would hold) must take effect at the very next request: the accounts change epoch moves with
 * them, and a token issued from a stale entry is refused at commit and issued again from the
 * database.
 */
describeEachDialect(
  'reliability: credential cache against changes from another process',
  (database) => {
    let service: Awaited<ReturnType<typeof startTestService>>;
    /** The other process's handle: not the service's, not shared with it. */
    let other: Database;

    before(async () => {
      service = await startTestService(withReaders(database()), { env: RAISED_RATE_LIMITS });
      other = openDatabase(database().config, silentLogger);
    });
    after(async () => {
      await service?.stop();
      await other?.destroy();
    });

    /** A new tenant whose app and membership the service has cached: a request reads neither. */
    async function cachedTenant(
      label: string,
    ): Promise<{ tenant: OAuthTenant; requests: TokenRequests }> {
      const tenant = await createOAuthTenant(other, systemClock, label);
      const requests = new TokenRequests(service.url, tenant.app);
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await requests.clientCredentials(tenant.employer.id)).status, 200);
        assert.equal((await requests.clientCredentials()).status, 200);
      }
      const { result, reads } = await credentialReadsDuring(service.db, () =>
        requests.clientCredentials(tenant.employer.id),
      );
      assert.equal(result.status, 200);
      assert.equal(reads, 0, 'the app and the membership come from the cache');
      return { tenant, requests };
    }

    const accountsEpoch = () => new ChangeEpochStore(other).accounts();

    it('a secret rotated elsewhere: the old secret is refused at once, the new one works', async () => {
      const { tenant, requests } = await cachedTenant('rotated');
      const tokensOfApp = async () =>
        (await other('access_tokens').where({ app_id: tenant.app.id })).length;
      const before = await tokensOfApp();
      const rotated = await testAccounts(other).apps.rotateSecret(
        tenant.user.id,
        tenant.app.client_id,
      );

      const old = await requests.clientCredentials(tenant.employer.id);
      assert.equal(old.status, 401, JSON.stringify(old.body));
      assert.equal(old.body.error, 'invalid_client');
      const fresh = await requests.clientCredentials(tenant.employer.id, rotated.clientSecret);
      assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
      // Again the other way round, and the old secret stays refused.
      const again = await requests.clientCredentials(undefined, rotated.clientSecret);
      assert.equal(again.status, 200);
      assert.equal((await requests.clientCredentials()).status, 401);
      // Only the new secret's two tokens were stored after the rotation.
      assert.equal(await tokensOfApp(), before + 2);
      const jtis = [fresh, again].map((answer) => jtiOf(answer.body.access_token as string));
      assert.equal((await other('access_tokens').whereIn('jti', jtis)).length, 2);

      // The new secret is cached again: after the requests that learn of the change, the app
      // is served from memory once more.
      for (let i = 0; i < 3; i += 1) {
        const answer = await requests.clientCredentials(undefined, rotated.clientSecret);
        assert.equal(answer.status, 200);
      }
      const { result, reads } = await credentialReadsDuring(service.db, () =>
        requests.clientCredentials(undefined, rotated.clientSecret),
      );
      assert.equal(result.status, 200);
      assert.equal(reads, 0, 'the rotated app is cached again');
    });

    it('introspection serves its client from the cache, and refuses it at once after a rotation or deletion elsewhere', async () => {
      const { tenant, requests } = await cachedTenant('introspecting');
      const token = (await requests.clientCredentials()).body.access_token as string;
      assert.equal((await requests.introspect(token)).body.active, true);
      const { result, reads } = await credentialReadsDuring(service.db, () =>
        requests.introspect(token),
      );
      assert.equal(result.body.active, true);
      assert.equal(reads, 0, 'the app comes from the cache, checked against the epoch');

      const rotated = await testAccounts(other).apps.rotateSecret(
        tenant.user.id,
        tenant.app.client_id,
      );
      const old = await requests.introspect(token);
      assert.equal(old.status, 401, JSON.stringify(old.body));
      assert.equal(old.body.error, 'invalid_client');
      const withNew = new TokenRequests(service.url, {
        client_id: tenant.app.client_id,
        secret: rotated.clientSecret,
      });
      assert.equal((await withNew.introspect(token)).body.active, true);

      await testAccounts(other).apps.deleteApp(tenant.user.id, tenant.app.client_id);
      const gone = await withNew.introspect(token);
      assert.equal(gone.status, 401, JSON.stringify(gone.body));
      assert.equal(gone.body.error, 'invalid_client');
    });

    it("the owner's membership removed elsewhere: the next employer token is refused", async () => {
      const { tenant, requests } = await cachedTenant('unmembered');
      const removed = await other('memberships')
        .where({ user_id: tenant.user.id, employer_id: tenant.employer.id })
        .delete();
      assert.equal(removed, 1);

      const refused = await requests.clientCredentials(tenant.employer.id);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.error, 'invalid_request');
      assert.equal((await requests.clientCredentials(tenant.employer.id)).status, 400);
      // The app itself is unchanged: a token without an employer is still issued.
      assert.equal((await requests.clientCredentials()).status, 200);
      assert.equal(
        (await other('access_tokens').where({ employer_id: tenant.employer.id })).length,
        4,
        'only the tokens issued before the removal name the employer',
      );
    });

    it('an app deleted elsewhere: the next request is invalid_client', async () => {
      const { tenant, requests } = await cachedTenant('deleted');
      await testAccounts(other).apps.deleteApp(tenant.user.id, tenant.app.client_id);

      for (const employer of [tenant.employer.id, undefined]) {
        const refused = await requests.clientCredentials(employer);
        assert.equal(refused.status, 401, JSON.stringify(refused.body));
        assert.equal(refused.body.error, 'invalid_client');
      }
      assert.equal((await other('access_tokens').where({ app_id: tenant.app.id })).length, 0);
    });

    it("an app gone with its owner's account (a cascade) is invalid_client", async () => {
      const { tenant, requests } = await cachedTenant('cascaded');
      await other('users').where({ id: tenant.user.id }).delete();
      const refused = await requests.clientCredentials(tenant.employer.id);
      assert.equal(refused.status, 401, JSON.stringify(refused.body));
      assert.equal(refused.body.error, 'invalid_client');
    });

    it(`a rotation while ${IN_FLIGHT} requests are in flight: nothing starts working with the old secret after it, and every 200 is stored`, async function () {
      this.timeout(120_000);
      const { tenant, requests } = await cachedTenant('in-flight');
      let rotatedAt = Infinity;
      let acknowledgedSoFar = 0;
      let startRotation!: () => void;
      const started = new Promise<void>((resolve) => (startRotation = resolve));
      const rotation = (async () => {
        // Rotated once some tokens have been issued, so that it lands mid-stream.
        await started;
        const rotated = await testAccounts(other).apps.rotateSecret(
          tenant.user.id,
          tenant.app.client_id,
        );
        rotatedAt = performance.now();
        return rotated.clientSecret;
      })();
      const outcomes = await runConcurrently(IN_FLIGHT, 10, async (i) => {
        const startedAt = performance.now();
        const answer = await requests.clientCredentials(i % 2 ? tenant.employer.id : undefined);
        if (answer.status === 200 && ++acknowledgedSoFar === 10) startRotation();
        return { answer, startedAfterRotation: startedAt > rotatedAt };
      });
      startRotation();
      const newSecret = await rotation;
      const answers = outcomes.map((outcome) => {
        assert.equal(
          outcome.status,
          'fulfilled',
          String((outcome as PromiseRejectedResult).reason),
        );
        return (
          outcome as PromiseFulfilledResult<{ answer: Observed; startedAfterRotation: boolean }>
        ).value;
      });
      const counted = tally(answers, (a) =>
        `${a.answer.status} ${a.answer.body.error ?? ''}`.trim(),
      );
      console.log(`      old secret around the rotation: ${JSON.stringify(counted)}`);
      assert.equal((counted['200'] ?? 0) + (counted['401 invalid_client'] ?? 0), IN_FLIGHT);
      assert.deepEqual(
        answers
          .filter((a) => a.startedAfterRotation && a.answer.status !== 401)
          .map((a) => a.answer.status),
        [],
        'the old secret worked for a request that started after the rotation committed',
      );

      const acknowledged = answers
        .filter((a) => a.answer.status === 200)
        .map((a) => a.answer.body.access_token as string);
      const stored = await other('access_tokens')
        .whereIn('jti', acknowledged.map(jtiOf))
        .pluck('jti');
      assert.equal(stored.length, acknowledged.length, 'every acknowledged token is stored');
      const withNew = new TokenRequests(service.url, {
        client_id: tenant.app.client_id,
        secret: newSecret,
      });
      for (const token of acknowledged) {
        const introspected = await withNew.introspect(token);
        assert.equal(introspected.status, 200);
        assert.equal(introspected.body.active, true);
      }
      assert.equal((await requests.clientCredentials()).status, 401);
      assert.equal((await withNew.clientCredentials(tenant.employer.id)).status, 200);
    });

    describe('the accounts epoch', () => {
      let tenant: OAuthTenant;
      before(async () => {
        tenant = await createOAuthTenant(other, systemClock, 'epoch');
      });

      async function assertMoves(change: () => Promise<unknown>, what: string): Promise<void> {
        const before = await accountsEpoch();
        await change();
        const after = await accountsEpoch();
        assert.ok(after > before, `${what} moved the epoch (${before} -> ${after})`);
      }

      it('moves with an update of an app', async () => {
        await assertMoves(
          () => testAccounts(other).apps.rotateSecret(tenant.user.id, tenant.app.client_id),
          'rotating a secret',
        );
        await assertMoves(
          () => other('apps').where({ id: tenant.publicApp.id }).update({ name: 'Renamed' }),
          'renaming an app',
        );
      });

      it('moves with the deletion of a membership', async () => {
        await assertMoves(
          () =>
            other('memberships')
              .where({ user_id: tenant.user.id, employer_id: tenant.employer.id })
              .delete(),
          'deleting a membership',
        );
      });

      it('moves with cascaded deletions: of an employer, and of a user with their apps', async () => {
        const employed = await createOAuthTenant(other, systemClock, 'epoch-employer');
        await assertMoves(
          () => other('employers').where({ id: employed.employer.id }).delete(),
          'deleting an employer (its memberships cascade)',
        );
        assert.equal(
          (await other('memberships').where({ employer_id: employed.employer.id })).length,
          0,
        );
        const owner = await createOAuthTenant(other, systemClock, 'epoch-owner');
        // Without memberships, only the apps' cascade can move it.
        await other('memberships').where({ user_id: owner.user.id }).delete();
        await assertMoves(
          () => other('users').where({ id: owner.user.id }).delete(),
          'deleting a user (their apps cascade)',
        );
        assert.equal((await other('apps').where({ owner_user_id: owner.user.id })).length, 0);
      });
    });
  },
);
