import assert from 'node:assert/strict';
import { ConsoleClient, locationOf, shownCode } from '../support/console-client.js';
import { runConcurrently, tally } from '../support/concurrency.js';
import { RAISED_RATE_LIMITS } from '../support/service-process.js';
import {
  describeEachDeployment,
  startDeployment,
  type RunningDeployment,
} from '../support/deployments.js';
import { basic, callApi } from '../support/oauth-fixtures.js';
import { TokenRequests } from '../support/token-requests.js';
import { uniqueEmail } from '../support/write-load.js';

/** Enough concurrent reads that both cluster workers answer some of them. */
const READS = 40;

/**
 * Every process caches verified access tokens for a moment (TOKEN_VERIFICATION_CACHE_MS). A
 * revocation answered by one process must reach the others' caches at once: with a cache far
 * longer than the test, a token that every worker has verified is revoked through one of them,
 * and no worker accepts it afterwards, at the bearer endpoints or at introspection.
 */
describeEachDeployment(
  'reliability: revocation reaches every process at once',
  (database, kind) => {
    let service: RunningDeployment;

    before(async () => {
      service = await startDeployment(database(), kind, {
        ...RAISED_RATE_LIMITS,
        TOKEN_VERIFICATION_CACHE_MS: '10000',
      });
    });
    after(async () => {
      await service?.stop();
    });

    it('refuses a revoked token in every worker that had verified it', async () => {
      const owner = new ConsoleClient(service.url);
      await owner.signUp(uniqueEmail('owner'), 'correct horse battery staple');
      const created = await owner.submit('/console/apps/new', '/console/apps/new', {
        name: 'Revoking app',
        client_type: 'confidential',
        redirect_uri_1: 'https://partner.example.com/callback',
      });
      const page = (await owner.get(locationOf(created))).body;
      const client = {
        client_id: shownCode(page, 'client-id') ?? assert.fail('the page shows the client id'),
        secret: shownCode(page, 'client-secret') ?? assert.fail('the page shows the secret'),
      };
      const requests = new TokenRequests(service.url, client);
      const issued = await requests.clientCredentials();
      assert.equal(issued.status, 200);
      const token = String(issued.body.access_token);

      const graphql = async () =>
        String(
          (
            await fetch(`${service.url}/graphql`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: '{"query":"{ __typename }"}',
            })
          ).status,
        );
      const introspected = async () => String((await requests.introspect(token)).body.active);
      const answers = async () => {
        const [bearer, introspection] = await Promise.all([
          runConcurrently(READS, 8, graphql),
          runConcurrently(READS, 8, introspected),
        ]);
        const counted = (outcomes: typeof bearer | typeof introspection) =>
          tally(outcomes, (o) => (o.status === 'fulfilled' ? String(o.value) : 'failed'));
        return { bearer: counted(bearer), introspection: counted(introspection) };
      };

      assert.deepEqual(await answers(), {
        bearer: { 200: READS },
        introspection: { true: READS },
      });
      const revoked = await callApi(service.url, 'POST', '/oauth/v2/revoke', {
        form: { token },
        headers: basic(client.client_id, client.secret),
      });
      assert.equal(revoked.status, 200);
      assert.deepEqual(await answers(), {
        bearer: { 401: READS },
        introspection: { false: READS },
      });
    });
  },
);
