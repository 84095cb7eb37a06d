import assert from 'node:assert/strict';
import { ConsoleClient, locationOf, shownCode } from '../support/console-client.js';
import { runConcurrently, tally } from '../support/concurrency.js';
import { RAISED_RATE_LIMITS } from '../support/service-process.js';
import {
  describeEachDeployment,
  startDeployment,
  type RunningDeployment,
} from '../support/deployments.js';
import { TokenRequests } from '../support/token-requests.js';
import { uniqueEmail } from '../support/write-load.js';

const DURING = 60;
const AFTER = 20;

/** The secret shown on a credentials page (once, right after creation or rotation). */
function shownSecret(html: string): string {
  const secret = shownCode(html, 'client-secret');
  assert.ok(secret, 'the page shows a secret');
  return secret;
}

function shownClientId(html: string): string {
  const clientId = shownCode(html, 'client-id');
  assert.ok(clientId, 'the page shows a client id');
  return clientId;
}

/**
 * The console rotates an app's secret while the app keeps requesting tokens with the old one.
 * Every request is answered 200 or 401 invalid_client, never 5xx; once the rotation has been
 * answered, the old secret fails every time and the new one works every time.
 */
describeEachDeployment(
  'reliability: secret rotation during token requests',
  (database, deployment) => {
    let service: RunningDeployment;

    before(async () => {
      service = await startDeployment(database(), deployment, RAISED_RATE_LIMITS);
    });
    after(async () => {
      await service?.stop();
    });

    it('answers every request cleanly, and switches secrets at the rotation', async () => {
      const owner = new ConsoleClient(service.url);
      await owner.signUp(uniqueEmail('owner'), 'correct horse battery staple');
      const created = await owner.submit('/console/apps/new', '/console/apps/new', {
        name: 'Rotating app',
        client_type: 'confidential',
        redirect_uri_1: 'https://partner.example.com/callback',
      });
      const credentials = locationOf(created);
      const page = (await owner.get(credentials)).body;
      const clientId = shownClientId(page);
      const oldSecret = shownSecret(page);
      const withOld = new TokenRequests(service.url, { client_id: clientId, secret: oldSecret });

      let rotatedAt = Infinity;
      const rotation = (async () => {
        // Let the first requests through before rotating, so the rotation lands mid-stream.
        await new Promise((resolve) => setTimeout(resolve, 20));
        const rotated = await owner.submit(`${credentials}/rotate`, `${credentials}/rotate`, {
          confirm: 'yes',
        });
        assert.equal(rotated.status, 303);
        rotatedAt = performance.now();
        return shownSecret((await owner.get(credentials)).body);
      })();
      const during = await runConcurrently(DURING, 6, async () => {
        const startedAt = performance.now();
        const answer = await withOld.clientCredentials();
        return {
          status: answer.status,
          error: answer.body.error,
          afterRotation: startedAt > rotatedAt,
        };
      });
      const newSecret = await rotation;

      const answers = during.map((outcome) => {
        assert.equal(
          outcome.status,
          'fulfilled',
          String((outcome as PromiseRejectedResult).reason),
        );
        return (
          outcome as PromiseFulfilledResult<{
            status: number;
            error?: string;
            afterRotation: boolean;
          }>
        ).value;
      });
      const counted = tally(answers, (a) => `${a.status} ${a.error ?? ''}`.trim());
      console.log(`      old secret while rotating: ${JSON.stringify(counted)}`);
      assert.equal((counted['200'] ?? 0) + (counted['401 invalid_client'] ?? 0), DURING);
      assert.deepEqual(
        answers.filter((a) => a.afterRotation && a.status !== 401),
        [],
        'the old secret worked after the rotation was answered',
      );

      const withNew = new TokenRequests(service.url, { client_id: clientId, secret: newSecret });
      const [oldAfter, newAfter] = await Promise.all([
        runConcurrently(AFTER, 6, () => withOld.clientCredentials()),
        runConcurrently(AFTER, 6, () => withNew.clientCredentials()),
      ]);
      const statuses = (outcomes: typeof oldAfter) =>
        tally(outcomes, (o) => (o.status === 'fulfilled' ? `${o.value.status}` : 'failed'));
      assert.deepEqual(statuses(oldAfter), { 401: AFTER });
      assert.deepEqual(statuses(newAfter), { 200: AFTER });
    });
  },
);
