import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { tally } from '../support/concurrency.js';
import type { InterviewRequests } from '../support/interview-requests.js';
import { mutatedEvent, outcomeCode } from '../support/interview-requests.js';
import { createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { RAISED_RATE_LIMITS } from '../support/service-process.js';
import {
  describeEachDeployment,
  startDeployment,
  type RunningDeployment,
} from '../support/deployments.js';
import { employerApi } from '../support/token-requests.js';

const ADDITIONS = 50;
const LIMIT = 49;

/**
 * DESIGN §5: at most 49 interviewers besides the creator, duplicate emails collapsing. Fifty
 * additions reach one event at once, each with an address of its own and one they all share
 * (in two letter cases): the first accepted adds two, every later one adds one, so exactly
 * 48 are accepted, whatever the order, and the last two are refused.
 */
describeEachDeployment(
  'reliability: 50 concurrent addInterviewers on one event',
  (database, deployment) => {
    let tenant: OAuthTenant;
    let service: RunningDeployment;
    let api: InterviewRequests;

    before(async () => {
      tenant = await createOAuthTenant(database().db, systemClock, 'add-race');
      service = await startDeployment(database(), deployment, RAISED_RATE_LIMITS);
      api = await employerApi(service.url, tenant);
    });
    after(async () => {
      await service?.stop();
    });

    it('holds the limit exactly and keeps every accepted addition', async () => {
      const event = mutatedEvent(await api.create({ interviewers: [] }))!;
      const additions = Array.from({ length: ADDITIONS }, (_, i) => [
        `only-${i}@example.com`,
        i % 2 ? 'SHARED@Example.com' : 'shared@example.com',
      ]);
      const answers = await Promise.all(
        additions.map((emails) => api.addInterviewers(event.id, emails)),
      );

      const expectedAccepted = LIMIT - 1;
      assert.deepEqual(tally(answers, outcomeCode), {
        ok: expectedAccepted,
        BAD_USER_INPUT: ADDITIONS - expectedAccepted,
      });
      for (const refused of answers.filter((answer) => answer.errors)) {
        assert.match(refused.errors![0]!.message, /at most 49 interviewers/);
      }
      const accepted = new Set([tenant.user.email.toLowerCase()]);
      answers.forEach((answer, i) => {
        if (!answer.errors) for (const email of additions[i]!) accepted.add(email.toLowerCase());
      });

      const [stored] = await api.read([event.id]);
      const emails = stored!.interviewersConnection.interviewers.map((one) =>
        one.email.toLowerCase(),
      );
      assert.equal(emails.length, LIMIT + 1, 'the creator and 49 invited');
      assert.deepEqual(new Set(emails), accepted, 'exactly the accepted additions');
      const positions = await database()
        .db('interviewers')
        .where({ event_id: event.id })
        .pluck('position');
      assert.deepEqual(
        positions.map(Number).sort((a, b) => a - b),
        Array.from({ length: LIMIT + 1 }, (_, i) => i),
      );
    });
  },
);
