import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Principal } from '../../src/oauth/principal.js';
import { BROWSER_TEST_TIMEOUT_MS, launchChromium } from '../support/browser.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';

const INTERVIEWER = 'lee.interviewer@example.com';
const INTERVIEWER_NAME = 'Lee Park';
const NOTE = 'Clear about trade-offs; would pair well with the platform team.';

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) {
    event {
      id status interviewerLobbyUrl interviewLandingPageUrl
      intervieweesConnection { interviewees { intervieweeLobbyUrl } }
    }
  }
}`;

const READ = `query($ids: [ID!]!) {
  virtualInterviewEvents(input: { ids: $ids }) {
    events {
      status
      intervieweesConnection {
        interviewees {
          status
          interviewRecordsConnection {
            records {
              startTime endTime
              interviewOutcomesConnection {
                outcomes { interviewer { email name } decision { value noteText } }
              }
            }
          }
        }
      }
    }
  }
}`;

/**
 * An interview day in a real browser against the real service: the event is scheduled through
 * the GraphQL API, the interviewee checks in, an interviewer admits them, ends the interview,
 * records a decision and ends the event, and the API then reports all of it.
 */
describe('an interview day in Chromium [sqlite]', function () {
  this.timeout(BROWSER_TEST_TIMEOUT_MS);
  let database: (TestDatabase & { dispose(): Promise<void> }) | undefined;
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  let principal: Principal;

  before(async function () {
    const launched = await launchChromium();
    if (!launched) this.skip();
    browser = launched;
    database = await createTestDatabase('sqlite');
    const tenant = await insertTenant(database.db, 'interview-day');
    principal = {
      kind: 'user',
      userId: tenant.userId,
      appId: tenant.appId,
      clientId: 'interview-day-client',
      jti: 'interview-day-token',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    service = await startTestService(database, {
      authenticate: async (token) => (token === 'scheduler' ? principal : null),
    });
  });

  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await service?.stop();
    await database?.dispose();
  });

  async function gql(query: string, variables: object) {
    const response = await fetch(`${service!.url}/graphql`, {
      method: 'POST',
      headers: { authorization: 'Bearer scheduler', 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: any; errors?: unknown };
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  }

  /** A page in a browser context of its own: its own cookies, as on another person's machine. */
  async function newPerson(): Promise<Page> {
    const context = await browser!.newContext();
    contexts.push(context);
    const page = await context.newPage();
    return page;
  }

  /** Clicks a form button and waits for the page it leads to (the 303's target or a refusal). */
  async function press(page: Page, name: string): Promise<void> {
    await Promise.all([
      page.waitForEvent('framenavigated'),
      page.getByRole('button', { name, exact: true }).click(),
    ]);
    await page.waitForLoadState();
  }

  it('checks in, admits, ends, decides and ends the event, as the API then reports', async () => {
    const now = Date.now();
    const created = await gql(CREATE, {
      input: {
        title: 'Platform engineer – final round',
        startTime: new Date(now + 10 * 60_000).toISOString(),
        endTime: new Date(now + 70 * 60_000).toISOString(),
        timezone: 'Europe/Berlin',
        interviewers: [{ email: INTERVIEWER }],
        interviewee: { name: 'Robin Applicant', email: 'robin@example.com' },
        requestMetadata: { atsName: 'Interview day test' },
      },
    });
    const event = created.createVirtualInterviewEvent.event;
    const intervieweeUrl: string = event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl;
    assert.equal(event.status, 'SCHEDULED');

    const interviewee = await newPerson();
    await interviewee.goto(intervieweeUrl);
    await interviewee.getByRole('heading', { name: 'Platform engineer – final round' }).waitFor();
    await interviewee.getByText('You have not checked in yet.').waitFor();
    await press(interviewee, 'Check in');
    await interviewee.getByText('You are checked in and waiting in the lobby.').waitFor();
    assert.equal(await interviewee.getByRole('button', { name: 'Check in' }).count(), 0);

    const interviewer = await newPerson();
    await interviewer.goto(event.interviewerLobbyUrl);
    await interviewer.getByLabel('Email').fill('someone.else@example.com');
    await press(interviewer, 'Continue');
    await interviewer
      .getByRole('alert')
      .getByText('This email is not invited to this interview event.')
      .waitFor();
    await interviewer.getByLabel('Email').fill(INTERVIEWER.toUpperCase());
    await interviewer.getByLabel('Your name').fill(INTERVIEWER_NAME);
    await press(interviewer, 'Continue');
    await interviewer.getByText('Checked in, waiting in the lobby').waitFor();
    await interviewer
      .getByText(`you are ${INTERVIEWER_NAME} (${INTERVIEWER.toUpperCase()})`)
      .waitFor();

    await press(interviewer, 'Admit');
    await interviewer.getByText('Being interviewed').waitFor();
    // The interviewee's lobby follows by itself (public/lobby-live.js).
    await interviewee.getByText('You are being interviewed now.').waitFor();

    await press(interviewer, 'End interview');
    await interviewer.getByRole('heading', { name: 'End this interview?' }).waitFor();
    await press(interviewer, 'End interview');
    await interviewer.getByText('Interviewed', { exact: false }).first().waitFor();
    await interviewer.getByRole('heading', { name: 'Interview 1' }).waitFor();
    await interviewer.getByLabel('Yes', { exact: true }).check();
    await interviewer.getByLabel('Note').fill(NOTE);
    await press(interviewer, 'Save decision');
    await interviewer
      .getByRole('status')
      .getByText('Your decision on Interview 1 is saved: Yes.')
      .waitFor();
    assert.equal(await interviewer.getByLabel('Yes', { exact: true }).isChecked(), true);
    assert.equal(await interviewer.getByLabel('Note').inputValue(), NOTE);

    await press(interviewer, 'End event');
    await interviewer.getByRole('heading', { name: 'End the whole event?' }).waitFor();
    await press(interviewer, 'End event');
    await interviewer.getByText('This interview event has ended.').waitFor();
    assert.equal(await interviewer.getByRole('button', { name: 'Admit' }).count(), 0);
    assert.equal(await interviewer.getByRole('button', { name: 'End event' }).count(), 0);
    await interviewee.reload();
    await interviewee.getByText('Your interview is over.', { exact: false }).waitFor();
    // The interviewee sees the name the interviewer gave, never their email.
    const interviewers = await interviewee.locator('.event-info').innerText();
    assert.match(interviewers, new RegExp(INTERVIEWER_NAME));
    assert.doesNotMatch(interviewers, /@/);

    const read = await gql(READ, { ids: [event.id] });
    const [stored] = read.virtualInterviewEvents.events;
    assert.equal(stored.status, 'ENDED');
    const [person] = stored.intervieweesConnection.interviewees;
    assert.equal(person.status, 'INTERVIEWED');
    const { records } = person.interviewRecordsConnection;
    assert.equal(records.length, 1);
    const [record] = records;
    // Admitted and ended without anyone entering the room: the interview never started.
    assert.equal(record.startTime, null, JSON.stringify(record));
    assert.ok(record.endTime, JSON.stringify(record));
    // One outcome per interviewer: the event's creator, who decided nothing, comes first.
    const [creator, invited, ...others] = record.interviewOutcomesConnection.outcomes;
    assert.equal(others.length, 0);
    assert.deepEqual(creator.decision, null);
    assert.deepEqual(invited, {
      interviewer: { email: INTERVIEWER, name: INTERVIEWER_NAME },
      decision: { value: 'YES', noteText: NOTE },
    });
  });
});
