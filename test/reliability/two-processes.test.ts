import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { runConcurrently, tally, volume } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { halfWrittenRows } from '../support/integrity.js';
import { checkLedger } from '../support/ledger-check.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import {
  RAISED_RATE_LIMITS,
  fixedAddress,
  startServiceProcess,
  type ServiceProcess,
} from '../support/service-process.js';
import { TokenRequests } from '../support/token-requests.js';
import { WriteLedger } from '../support/write-ledger.js';
import { WriteLoad } from '../support/write-load.js';

const TOKENS = volume('RELIABILITY_TWO_PROCESS_TOKENS', 120);
const EVENTS = volume('RELIABILITY_TWO_PROCESS_EVENTS', 16);
const CONCURRENCY = 8;

/**
 * Two service processes on one database, as a second server or `node:cluster` would run. On
 * SQLite they take turns at the file's write lock; issue 9 saw the second one hang. Both take
 * writes at once, some to the very same events, and every one of them must be answered.
 */
describeEachDialect('reliability: two service processes on one database', (database) => {
  let services: ServiceProcess[] = [];

  after(async () => {
    await Promise.all(services.map((service) => service.stop()));
  });

  it('both answer every concurrent write, and the writes all stay', async function () {
    this.timeout(120_000);
    const tenant = await createOAuthTenant(database().db, systemClock, 'pair');
    // One issuer for both, as behind one load balancer: a token of one is good at the other.
    const issuer = await fixedAddress();
    const env = { ...RAISED_RATE_LIMITS, AUTH_URL: issuer.AUTH_URL };
    services = await Promise.all([
      startServiceProcess(database(), { ...env, PORT: issuer.PORT }),
      startServiceProcess(database(), { ...env, PORT: (await fixedAddress()).PORT }),
    ]);
    const ledger = new WriteLedger();
    const loads = await Promise.all(
      services.map(async (service) => {
        const issued = await new TokenRequests(service.url, tenant.app).clientCredentials(
          tenant.employer.id,
        );
        assert.equal(issued.status, 200, service.output());
        return new WriteLoad(service.url, tenant, ledger, issued.body.access_token);
      }),
    );

    // Each creates events; then both add interviewers to every event at once, and each runs
    // interview days on the pages, while tokens are issued by both.
    const created = await runConcurrently(EVENTS * 2, CONCURRENCY, (i) =>
      loads[i % 2]!.createEvent(2, true),
    );
    const events = created.map((outcome) => {
      assert.ok(outcome.status === 'fulfilled' && outcome.value, 'every event is created');
      return outcome.value;
    });
    const work: Array<() => Promise<unknown>> = [
      ...Array.from({ length: TOKENS * 2 }, (_, i) => () => loads[i % 2]!.issueToken()),
      ...events.flatMap((event) => [
        () => loads[0]!.addInterviewers(event.id, 2),
        () => loads[1]!.addInterviewers(event.id, 2),
      ]),
      ...events.map(
        (event, i) => () =>
          loads[i % 2]!.lobbyDay(event, event.interviewersConnection.interviewers[1]!.email),
      ),
    ];
    const outcomes = await runConcurrently(work.length, CONCURRENCY * 2, (i) => work[i]!());
    const answered = tally(outcomes, (o) =>
      o.status === 'fulfilled' && o.value === true ? 'acknowledged' : 'not acknowledged',
    );
    console.log(`      writes across both processes: ${JSON.stringify(answered)}`);
    assert.deepEqual(answered, { acknowledged: work.length });

    // A token one process issued is active at the other.
    const crossCheck = await new TokenRequests(services[1]!.url, tenant.app).introspect(
      ledger.accessTokens[0]!,
    );
    assert.equal(crossCheck.body.active, true);
    for (const service of services) {
      assert.equal((await fetch(`${service.url}/readyz`)).status, 200, service.output());
    }

    const report = await checkLedger(ledger, { url: services[0]!.url, db: database().db, tenant });
    console.log(`      acknowledged ${JSON.stringify(report.acknowledged)}`);
    console.log(`      found        ${JSON.stringify(report.found)}`);
    assert.deepEqual(report.problems, []);
    assert.deepEqual(report.found, report.acknowledged);
    assert.deepEqual(await halfWrittenRows(database().db), []);
  });
});
