import assert from 'node:assert/strict';
import { ConsoleClient, formCsrfToken, locationOf, shownCode } from '../support/console-client.js';
import { testCliServices } from '../support/compose.js';
import { runConcurrently, tally } from '../support/concurrency.js';
import { RAISED_RATE_LIMITS } from '../support/service-process.js';
import {
  describeEachDeployment,
  startDeployment,
  type RunningDeployment,
} from '../support/deployments.js';
import { TokenRequests } from '../support/token-requests.js';
import { uniqueEmail } from '../support/write-load.js';

/** Enough concurrent requests that both cluster workers answer some of them. */
const READS = 40;

/**
 * Which APIs an app may use is held in every process's memory (src/accounts/api-access-cache.ts).
 * With verified tokens cached far longer than the test, an API switched on (through the console,
 * or from the CLI, which reaches no process) is answered on the very next request by every
 * worker. One switched off on the console is refused by every worker as soon as the console's
 * notice reached it over the deployment's bus, like a revoked token (at most once, a moment after
 * the console answered; TOKEN_VERIFICATION_CACHE_MS bounds a lost notice): the test waits for
 * that, far less than the cache's 10 s.
 */
describeEachDeployment(
  'reliability: an app enabled for an API is served at once by every process',
  (database, kind) => {
    let service: RunningDeployment;
    let owner: ConsoleClient;
    let clientId = '';
    let token = '';

    before(async () => {
      service = await startDeployment(database(), kind, {
        ...RAISED_RATE_LIMITS,
        TOKEN_VERIFICATION_CACHE_MS: '10000',
      });
      owner = new ConsoleClient(service.url);
      await owner.signUp(uniqueEmail('access'), 'correct horse battery staple');
      const created = await owner.submit('/console/apps/new', '/console/apps/new', {
        name: 'Access app',
        client_type: 'confidential',
        redirect_uri_1: 'https://partner.example.com/callback',
      });
      const page = (await owner.get(locationOf(created))).body;
      clientId = shownCode(page, 'client-id') ?? assert.fail('the page shows the client id');
      const secret = shownCode(page, 'client-secret') ?? assert.fail('the page shows the secret');
      const issued = await new TokenRequests(service.url, {
        client_id: clientId,
        secret,
      }).clientCredentials();
      assert.equal(issued.status, 200);
      token = String(issued.body.access_token);
    });
    after(async () => {
      await service?.stop();
    });

    /** How READS concurrent calls of the webhook API were answered: data, or the error's API. */
    async function answers() {
      const outcomes = await runConcurrently(READS, 8, async () => {
        const response = await fetch(`${service.url}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'query { webhookEndpoint(id: "none") { id } }' }),
        });
        const body = (await response.json()) as {
          errors?: Array<{ extensions: { code: string; api?: string } }>;
        };
        const [error] = body.errors ?? [];
        return error ? `${error.extensions.code} ${error.extensions.api}` : 'data';
      });
      return tally(outcomes, (o) => (o.status === 'fulfilled' ? o.value : 'failed'));
    }

    /** Asks until every answer is a refusal (the other worker heard of the switch). */
    async function refusedEverywhere() {
      const deadline = Date.now() + 3000;
      let seen = await answers();
      while (seen.data && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen = await answers();
      }
      return seen;
    }

    async function switchOnConsole(enabled: 'on' | 'off') {
      const base = `/console/apps/${clientId}`;
      const action = `${base}/apis/webhooks`;
      const page = await owner.get(base);
      const switched = await owner.post(action, {
        csrf_token: formCsrfToken(page.body, action),
        enabled,
      });
      assert.equal(switched.status, 303, switched.body);
    }

    it('counts a switch on the console, and enabling from the CLI, on the next request', async () => {
      assert.deepEqual(await answers(), { data: READS });

      await switchOnConsole('off');
      assert.deepEqual(await refusedEverywhere(), { 'FORBIDDEN webhooks': READS });

      // Another process (as the CLI is) enables it: no process hears of it but the database.
      const cli = testCliServices(database().db).apiAccess;
      const app = await cli.appByClientId(clientId);
      assert.equal(await cli.setEnabled(app, 'webhooks', true), true);
      assert.deepEqual(await answers(), { data: READS });

      await switchOnConsole('off');
      assert.deepEqual(await refusedEverywhere(), { 'FORBIDDEN webhooks': READS });
      await switchOnConsole('on');
      assert.deepEqual(await answers(), { data: READS });
    });
  },
);
