import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { ConsoleClient, formCsrfToken } from '../support/console-client.js';
import { tally } from '../support/concurrency.js';
import type { InterviewRequests } from '../support/interview-requests.js';
import { mutatedEvent, outcomeCode, type ReportedEvent } from '../support/interview-requests.js';
import { createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { RAISED_RATE_LIMITS } from '../support/service-process.js';
import {
  describeEachDeployment,
  startDeployment,
  type RunningDeployment,
} from '../support/deployments.js';
import { employerApi } from '../support/token-requests.js';

const ROUNDS = 5;
const UPDATES = 20;
const CANCELS = 3;

/**
 * Cancellation racing updates and a lobby check-in on one event. Each update either lands
 * before the cancellation (and says the event is SCHEDULED) or is refused as a change to a
 * cancelled event; every cancellation answers CANCELLED (it is idempotent); the check-in either
 * lands first or is refused. The event ends CANCELLED with its interviewee, holding exactly the
 * interviewers of the accepted additions and the title of an accepted change.
 */
describeEachDeployment(
  'reliability: cancel racing updates on one event',
  (database, deployment) => {
    let tenant: OAuthTenant;
    let service: RunningDeployment;
    let api: InterviewRequests;

    before(async () => {
      tenant = await createOAuthTenant(database().db, systemClock, 'cancel-race');
      service = await startDeployment(database(), deployment, RAISED_RATE_LIMITS);
      api = await employerApi(service.url, tenant);
    });
    after(async () => {
      await service?.stop();
    });

    it('lets each update win or be refused cleanly, and ends consistent', async () => {
      const totals: Record<string, number> = {};
      for (let round = 0; round < ROUNDS; round += 1) {
        const event = mutatedEvent(
          await api.create({
            title: 'Before',
            interviewers: ['lee@example.com'],
            interviewee: { name: 'Robin Applicant', email: 'robin@example.com' },
          }),
        )!;
        const lobby = new URL(event.intervieweesConnection.interviewees[0]!.intervieweeLobbyUrl)
          .pathname;
        const visitor = new ConsoleClient(service.url);
        const csrfToken = formCsrfToken((await visitor.get(lobby)).body, `${lobby}/check-in`);

        const updates = Array.from({ length: UPDATES }, (_, i) =>
          i % 2
            ? { title: `Title ${i}`, send: () => api.setTitle(event.id, `Title ${i}`) }
            : {
                email: `added-${i}@example.com`,
                send: () => api.addInterviewers(event.id, [`added-${i}@example.com`]),
              },
        );
        // All at once, but sent in an order that puts the cancellations and the check-in at a
        // different place among the updates in every round.
        const cut = Math.round((round * UPDATES) / (ROUNDS - 1));
        const early = updates.slice(0, cut).map((update) => update.send());
        const checkIn = () => visitor.post(`${lobby}/check-in`, { csrf_token: csrfToken });
        const checkInFirst = round % 2 === 0 ? checkIn() : undefined;
        const cancels = Array.from({ length: CANCELS }, () => api.cancel(event.id));
        const checkInLast = checkInFirst ? undefined : checkIn();
        const late = updates.slice(cut).map((update) => update.send());
        const updated = await Promise.all([...early, ...late]);
        const cancelled = await Promise.all(cancels);
        const checkedIn = (await (checkInFirst ?? checkInLast))!;

        assert.deepEqual(
          cancelled.map((body) => mutatedEvent(body)?.status),
          Array(CANCELS).fill('CANCELLED'),
        );
        const counted = tally(updated, outcomeCode);
        assert.equal(
          (counted.ok ?? 0) + (counted.BAD_USER_INPUT ?? 0),
          UPDATES,
          JSON.stringify(counted),
        );
        for (const [kind, count] of Object.entries(counted))
          totals[kind] = (totals[kind] ?? 0) + count;
        updated.forEach((body) => {
          if (body.errors) assert.match(body.errors[0]!.message, /CANCELLED cannot be changed/);
          // Accepted before the cancellation; after the check-in (which starts the event) or not.
          else
            assert.ok(
              ['SCHEDULED', 'STARTED'].includes(mutatedEvent(body)!.status),
              `an accepted update came first, but it says ${mutatedEvent(body)!.status}`,
            );
        });
        assert.ok([303, 409].includes(checkedIn.status), `check-in answered ${checkedIn.status}`);
        const checkInOutcome = `check-in ${checkedIn.status}`;
        totals[checkInOutcome] = (totals[checkInOutcome] ?? 0) + 1;

        const [final] = (await api.read([event.id])) as ReportedEvent[];
        assert.equal(final!.status, 'CANCELLED');
        assert.equal(final!.intervieweesConnection.interviewees[0]!.status, 'CANCELLED');
        const accepted = updates.filter((_, i) => !updated[i]!.errors);
        const emails = new Set(final!.interviewersConnection.interviewers.map((one) => one.email));
        assert.deepEqual(
          emails,
          new Set([
            tenant.user.email,
            'lee@example.com',
            ...accepted.flatMap((update) => (update.email ? [update.email] : [])),
          ]),
        );
        const titles = accepted.flatMap((update) => (update.title ? [update.title] : []));
        assert.ok(
          titles.length ? titles.includes(final!.title) : final!.title === 'Before',
          `final title ${final!.title} is not one of the accepted ones`,
        );
      }
      console.log(`      outcomes over ${ROUNDS} events: ${JSON.stringify(totals)}`);
    });
  },
);
