import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import type { Principal } from '../../src/graphql/context.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import {
  employerAppPrincipal,
  insertEventGraph,
  insertTenant,
} from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';

/** Cost units per window (the default window; the services' clock is moved by hand). */
const BUDGET = 1000;
const WINDOW_SECONDS = 60;
/** Leases run a second past the window (src/cost-budgets/leased-budgets.ts). */
const LEASE_SECONDS = 1;

/** Costs 1 + the number of ids: the payload and one event per id. */
const BY_IDS =
  'query($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events { id } } }';

describeEachDialect(
  'rolling cost budget per client across two services sharing the database',
  (database) => {
    let services: Array<Awaited<ReturnType<typeof startTestService>>> = [];
    const principals = new Map<string, Principal>();
    let eventId: string;
    let otherEventId: string;
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 9));

    before(async function () {
      this.timeout(60_000);
      const spender = await insertTenant(database().db, 'spender');
      const other = await insertTenant(database().db, 'other');
      eventId = (await insertEventGraph(database().db, spender)).event.id;
      otherEventId = (await insertEventGraph(database().db, other)).event.id;
      principals.set('spender', employerAppPrincipal(spender));
      principals.set('other', employerAppPrincipal(other));
      const env = {
        GRAPHQL_COST_BUDGETS: 'on',
        GRAPHQL_COST_BUDGET: String(BUDGET),
        GRAPHQL_COST_BUDGET_WINDOW_SECONDS: String(WINDOW_SECONDS),
      };
      const authenticate = async (token: string) => principals.get(token) ?? null;
      services = [
        await startTestService(database(), { authenticate, env, clock }),
        await startTestService(database(), { authenticate, env, clock }),
      ];
    });
    after(async () => {
      await Promise.all(services.map((service) => service.stop()));
    });

    function byIds(service: number, token: string, count: number) {
      const ids = Array.from({ length: count }, () => (token === 'other' ? otherEventId : eventId));
      return postGraphQL(services[service]!.url, token, { query: BY_IDS, variables: { ids } });
    }

    it('admits no more than the budget in any window, refuses with 429 and Retry-After, and lets a retry through after it', async function () {
      this.timeout(90_000);
      // Admissions at known instants: both services read one clock, moved a second at a time,
      // with two requests costing 50 sent at once at each instant, one to each service.
      const admitted: Array<{ at: number; cost: number }> = [];
      let firstRefusal: Awaited<ReturnType<typeof byIds>> | undefined;
      for (let second = 0; second < 3 * WINDOW_SECONDS; second += 1) {
        clock.advance(1000);
        const answers = await Promise.all([byIds(0, 'spender', 49), byIds(1, 'spender', 49)]);
        for (const answer of answers) {
          if (answer.status === 429) {
            firstRefusal ??= answer;
            continue;
          }
          assert.equal(answer.status, 200);
          assert.equal(answer.body.errors, undefined, JSON.stringify(answer.body.errors));
          admitted.push({ at: clock.now(), cost: 50 });
        }
      }
      const total = admitted.reduce((sum, one) => sum + one.cost, 0);
      assert.ok(total >= 2 * BUDGET, `only ${total} admitted in three windows`);
      for (const { at: from } of admitted) {
        const inWindow = admitted
          .filter(({ at }) => at >= from && at < from + WINDOW_SECONDS * 1000)
          .reduce((sum, one) => sum + one.cost, 0);
        assert.ok(inWindow <= BUDGET, `${inWindow} admitted in the window from ${from}`);
      }

      assert.ok(firstRefusal, 'nothing was refused');
      assert.equal(firstRefusal.body.data, null);
      assert.equal(firstRefusal.body.errors?.length, 1);
      const error = firstRefusal.body.errors[0]!;
      assert.equal(error.extensions.code, 'RATE_LIMITED');
      assert.match(error.message, /cost budget of 1000 per 60 s: this operation costs 50/);
      assert.equal(firstRefusal.headers.get('ratelimit-limit'), String(BUDGET));
      assert.ok(Number(firstRefusal.headers.get('ratelimit-remaining')) < 50);

      // Refused now; once Retry-After has passed with nobody spending meanwhile, the request is
      // admitted, by the other service too.
      let refusedBy = 0;
      let refused = await byIds(refusedBy, 'spender', 49);
      for (let i = 1; refused.status !== 429 && i < 40; i += 1) {
        refusedBy = i % 2;
        refused = await byIds(refusedBy, 'spender', 49);
      }
      assert.equal(refused.status, 429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= WINDOW_SECONDS + LEASE_SECONDS, `${retryAfter}`);
      clock.advance(retryAfter * 1000 - 1);
      assert.equal((await byIds(refusedBy, 'spender', 49)).status, 429, 'admitted too early');
      clock.advance(1);
      const retried = await byIds(1 - refusedBy, 'spender', 49);
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      assert.equal(retried.body.errors, undefined);
    });

    it('leaves another client its own budget while one is refused', async function () {
      this.timeout(30_000);
      let refused = false;
      for (let i = 0; i < 60 && !refused; i += 1) {
        refused = (await byIds(i % 2, 'spender', 99)).status === 429;
      }
      assert.ok(refused, 'the spender was never refused');
      for (const service of [0, 1]) {
        const other = await byIds(service, 'other', 4);
        assert.equal(other.status, 200, JSON.stringify(other.body));
        assert.equal(other.headers.get('ratelimit-limit'), String(BUDGET));
        // Less what both services leased for it: each knows only its own lease's unused part.
        assert.ok(Number(other.headers.get('ratelimit-remaining')) > BUDGET / 2);
      }
    });

    it('reports the cost of each answer in extensions.cost and the RateLimit headers', async function () {
      this.timeout(30_000);
      const response = await byIds(0, 'other', 3);
      assert.equal(response.status, 200);
      const cost = (response.body as { extensions?: { cost?: Record<string, unknown> } }).extensions
        ?.cost;
      assert.deepEqual(Object.keys(cost ?? {}).sort(), [
        'actualQueryCost',
        'requestedQueryCost',
        'throttleStatus',
      ]);
      assert.equal(cost!.requestedQueryCost, 4);
      // The payload and the three entries (one event, read once, in each place).
      assert.equal(cost!.actualQueryCost, 4);
      const status = cost!.throttleStatus as Record<string, number>;
      assert.equal(status.maximumAvailable, BUDGET);
      assert.equal(status.windowSeconds, WINDOW_SECONDS);
      assert.equal(status.restoreRate, Math.round((BUDGET / WINDOW_SECONDS) * 100) / 100);
      assert.equal(String(status.currentlyAvailable), response.headers.get('ratelimit-remaining'));
      assert.ok(Number(response.headers.get('ratelimit-reset')) <= WINDOW_SECONDS + LEASE_SECONDS);

      const missing = await postGraphQL(services[0]!.url, 'other', {
        query: `{ virtualInterviewEvents(input: { ids: ["no-such-event", "${otherEventId}"] }) { events { id } } }`,
      });
      const missingCost = (missing.body as { extensions: { cost: Record<string, number> } })
        .extensions.cost;
      assert.equal(missingCost.requestedQueryCost, 3);
      // A null entry is no object: the answer held the payload and one event.
      assert.equal(missingCost.actualQueryCost, 2);
    });

    it("applies an app's own budget in every service from their next lease", async () => {
      const appId = principals.get('other')!.appId;
      await database().db('app_cost_budgets').insert({ app_id: appId, units: 30, updated_at: 0 });
      try {
        // Past what the client spent so far, and past the services' leases.
        clock.advance(61_000);
        for (const service of [0, 1]) {
          const answer = await byIds(service, 'other', 4);
          assert.equal(answer.status, 200);
          assert.equal(answer.headers.get('ratelimit-limit'), '30');
        }
        const tooCostly = await byIds(0, 'other', 30);
        assert.equal(tooCostly.body.errors?.[0]?.extensions.code, 'BAD_USER_INPUT');
      } finally {
        await database().db('app_cost_budgets').where({ app_id: appId }).delete();
        clock.advance(61_000);
      }
    });

    it('refuses an operation that costs more than the whole budget as bad input, not 429', async () => {
      const response = await byIds(0, 'other', BUDGET);
      assert.equal(response.status, 200);
      assert.equal(response.body.errors?.[0]?.extensions.code, 'BAD_USER_INPUT');
      assert.match(
        response.body.errors[0]!.message,
        /costs 1001, more than the client's whole budget of 1000/,
      );
    });
  },
  { timeoutMs: 120_000 },
);
