import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { employerAppPrincipal, insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';

const HOUR = 3_600_000;
const MORNING = Date.UTC(2027, 6, 5, 8, 0);

describeEachDialect('calendar mails in the development outbox', (database) => {
  it('lists each invitation with its calendar part when SMTP_URL is unset', async () => {
    const clock = new ManualClock(MORNING);
    const tenant = await insertTenant(database().db, 'outbox');
    const service = await startTestService(database(), {
      clock,
      env: { CALENDAR_MAIL_SENDER: 'on', CALENDAR_MAIL_POLL_MS: '600000' },
      authenticate: async () => employerAppPrincipal(tenant),
    });
    try {
      const { body } = await postGraphQL(service.url, 'token', {
        query: `mutation($input: CreateVirtualInterviewEventInput!) {
          createVirtualInterviewEvent(input: $input) { event { id } } }`,
        variables: {
          input: {
            title: 'Outbox round',
            startTime: new Date(MORNING + 72 * HOUR).toISOString(),
            endTime: new Date(MORNING + 73 * HOUR).toISOString(),
            timezone: 'Europe/Berlin',
            interviewers: [],
            interviewee: { name: 'Casey Candidate', email: 'casey.outbox@example.com' },
            requestMetadata: { atsName: 'Outbox test' },
          },
        },
      });
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      await service.sendCalendarMails();
      const page = await (await fetch(`${service.url}/console/dev/outbox`)).text();
      assert.match(page, /Invitation: Outbox round/);
      assert.match(page, /To <strong>casey\.outbox@example\.com<\/strong>/);
      assert.match(page, /Calendar part: METHOD:REQUEST/);
      assert.match(page, /UID:[0-9a-f-]{36}@/);
    } finally {
      await service.stop();
    }
  });
});
