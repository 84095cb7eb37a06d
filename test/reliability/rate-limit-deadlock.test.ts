import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { runConcurrently, tally, volume } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { basic, createOAuthTenant } from '../support/oauth-fixtures.js';
import { seededRandom } from '../support/seeded-random.js';
import {
  RAISED_RATE_LIMITS,
  startServiceProcess,
  type ServiceProcess,
} from '../support/service-process.js';

const REQUESTS = volume('RATE_LIMIT_DEADLOCK_REQUESTS', 2000);
const CONCURRENCY = volume('RATE_LIMIT_DEADLOCK_CONCURRENCY', 12);
const APPS = 4;
/** The limiter keys on the client address and the claimed client id: 4 × 3 = 12 keys. */
const ADDRESSES = ['203.0.113.7', '198.51.100.23', '192.0.2.140'];
const TOKENS_PER_APP = 5;

interface Client {
  client_id: string;
  secret: string;
}

/**
 * Issue 18, item 1: both workers count the same few limiter keys in batched upserts at once.
 * Locked in different orders, PostgreSQL broke the cycle by failing one of them (40P01), and the
 * request answered 500. Any answer but a 5xx is fine here: tokens, revocations, introspections
 * and refused credentials, through a cluster of two workers, never a 5xx and no worker lost.
 */
describeEachDialect(
  'reliability: token endpoints under concurrent rate-limit writes',
  (database) => {
    let service: ServiceProcess | undefined;
    const clients: Client[] = [];

    before(async function () {
      this.timeout(120_000);
      for (let i = 0; i < APPS; i++) {
        const tenant = await createOAuthTenant(database().db, systemClock, `limit${i}`);
        clients.push({ client_id: tenant.app.client_id, secret: tenant.app.secret });
      }
      // The limiter keys on req.ip: behind a trusted proxy, the X-Forwarded-For address.
      service = await startServiceProcess(
        database(),
        { ...RAISED_RATE_LIMITS, TRUST_PROXY: 'true' },
        'cluster',
      );
    });

    after(async () => {
      await service?.stop();
    });

    it(`answers ${REQUESTS} mixed token, revoke and introspect requests without a 5xx`, async function () {
      this.timeout(240_000);
      const url = service!.url;
      const random = seededRandom(18);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

      const tokens: string[][] = [];
      for (const client of clients) {
        const issued: string[] = [];
        for (let i = 0; i < TOKENS_PER_APP; i++) {
          const answer = await post(url, '/oauth/v2/tokens', client, client.secret, ADDRESSES[0]!, {
            grant_type: 'client_credentials',
          });
          assert.equal(answer.status, 200, answer.text);
          issued.push((JSON.parse(answer.text) as { access_token: string }).access_token);
        }
        tokens.push(issued);
      }

      // Decided up front, so that the run is the same whatever order the requests finish in.
      const plan = Array.from({ length: REQUESTS }, () => {
        const app = Math.floor(random() * clients.length);
        const kind = pick(['token', 'token', 'revoke', 'introspect', 'bad-secret'] as const);
        return {
          app,
          kind,
          address: pick(ADDRESSES),
          token: pick(tokens[app]!),
          path: pick(PATHS),
        };
      });

      const outcomes = await runConcurrently(REQUESTS, CONCURRENCY, async (i) => {
        const { app, kind, address, token, path } = plan[i]!;
        const client = clients[app]!;
        switch (kind) {
          case 'token':
            return post(url, '/oauth/v2/tokens', client, client.secret, address, {
              grant_type: 'client_credentials',
            });
          case 'revoke':
            return post(url, '/oauth/v2/revoke', client, client.secret, address, { token });
          case 'introspect':
            return post(url, '/oauth/v2/introspect', client, client.secret, address, { token });
          case 'bad-secret':
            return post(url, path, client, 'not-the-secret', address, {
              grant_type: 'client_credentials',
              token,
            });
        }
      });

      const statuses = tally(outcomes, (o) =>
        o.status === 'fulfilled' ? String(o.value.status) : 'failed',
      );
      console.log(`      statuses: ${JSON.stringify(statuses)}`);
      const serverErrors = outcomes.filter(
        (o) => o.status === 'fulfilled' && o.value.status >= 500,
      );
      const sample = serverErrors
        .slice(0, 3)
        .map((o) => (o.status === 'fulfilled' ? o.value.text : ''));
      assert.equal(serverErrors.length, 0, `5xx answers, for example: ${sample.join(' | ')}`);
      assert.deepEqual(Object.keys(statuses).sort(), ['200', '401']);
      assert.deepEqual(service!.crashes(), [], service!.output());
    });
  },
);

const PATHS = ['/oauth/v2/tokens', '/oauth/v2/revoke', '/oauth/v2/introspect'] as const;

async function post(
  url: string,
  path: string,
  client: Client,
  secret: string,
  address: string,
  form: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': address,
      ...basic(client.client_id, secret),
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, text: await response.text() };
}
