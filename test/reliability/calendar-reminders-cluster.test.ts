import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { SmtpInbox } from '../support/smtp-inbox.js';
import { TokenRequests } from '../support/token-requests.js';

const EVENTS = 8;
/** The reminder goes a minute before the start, so the start is a little over a minute away. */
const START_IN_MS = 75_000;

/**
 * Calendar mails on the production default (a primary and two workers, each with its sender
 * polling often): every invitation and every reminder reaches its participant exactly once, the
 * reminders of many events falling due at the same instant in both workers.
 */
describeEachDialect(
  'reliability: calendar mails once each from two workers (cluster)',
  (database) => {
    let inbox: SmtpInbox;
    let service: ServiceProcess | undefined;
    before(async () => {
      inbox = await SmtpInbox.start();
    });
    after(async () => {
      await service?.stop();
      await inbox.close();
    });

    it(`mails ${EVENTS} events' invitations and reminders once each`, async function () {
      this.timeout(180_000);
      const { db } = database();
      const tenant = await createOAuthTenant(db, systemClock, 'calendar-cluster');
      service = await startServiceProcess(
        database(),
        { SMTP_URL: inbox.url, CALENDAR_REMINDERS: '1m', CALENDAR_MAIL_POLL_MS: '100' },
        'cluster',
      );
      const issued = await new TokenRequests(service.url, tenant.app).clientCredentials(
        tenant.employer.id,
      );
      assert.equal(issued.status, 200);
      const start = Date.now() + START_IN_MS;
      const run = `${process.pid}-${Date.now()}`;
      const interviewees = Array.from(
        { length: EVENTS },
        (_, i) => `casey-${i}-${run}@example.com`,
      );
      const interviewer = `lee-${run}@example.com`;
      for (const email of interviewees) {
        const { body } = await postGraphQL(service.url, issued.body.access_token, {
          query: `mutation($input: CreateVirtualInterviewEventInput!) {
          createVirtualInterviewEvent(input: $input) { event { id } } }`,
          variables: {
            input: {
              title: 'Cluster round',
              startTime: new Date(start).toISOString(),
              endTime: new Date(start + 3_600_000).toISOString(),
              timezone: 'UTC',
              interviewers: [{ email: interviewer }],
              interviewee: { name: 'Casey Candidate', email },
              requestMetadata: { atsName: 'Cluster test' },
            },
          },
        });
        assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      }

      // The kind of each mail, from its subject (MIME-encoded when it holds a non-ASCII time).
      const subjects = (to: string) =>
        inbox.to(to).map((mail) => /Invitation|Reminder|Updated|Cancelled/.exec(mail.subject)?.[0]);
      const deadline = start - 5_000;
      while (inbox.to(interviewer).length < 2 * EVENTS) {
        assert.ok(
          Date.now() < deadline,
          `${inbox.to(interviewer).length} mails to the interviewer`,
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // A mail sent twice would arrive within a few of the senders' polls.
      await new Promise((resolve) => setTimeout(resolve, 1500));

      for (const email of interviewees) {
        assert.deepEqual(subjects(email), ['Invitation', 'Reminder'], email);
      }
      const toInterviewer = subjects(interviewer);
      assert.equal(toInterviewer.length, 2 * EVENTS);
      assert.equal(toInterviewer.filter((word) => word === 'Reminder').length, EVENTS);
      const statuses = await db('calendar_mails').distinct('status').pluck('status');
      assert.deepEqual(statuses, ['sent']);
      assert.deepEqual(service.crashes(), []);
    });
  },
);
