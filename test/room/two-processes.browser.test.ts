import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { systemClock } from '../../src/clock.js';
import { BROWSER_TEST_TIMEOUT_MS, launchChromium } from '../support/browser.js';
import {
  createTestDatabase,
  isPostgresReachable,
  type TestDatabase,
} from '../support/databases.js';
import { FAKE_MEDIA_FLAGS, People } from '../support/interview-room.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { TokenRequests } from '../support/token-requests.js';
import {
  CREATE_EVENT,
  conductInterview,
  endInterview,
  eventStartingSoon,
  recordAFewSeconds,
  type GraphQL,
} from './conduct-interview.js';

/**
 * The interviewee and the interviewer on two service processes that share one PostgreSQL: the
 * lobbies follow each other, the room is signalled and the recording announced across the
 * processes (LISTEN/NOTIFY), as when a load balancer sends them to different machines.
 */
describe('the interview room across two service processes [postgres]', function () {
  this.timeout(BROWSER_TEST_TIMEOUT_MS);
  let database: (TestDatabase & { dispose(): Promise<void> }) | undefined;
  let first: ServiceProcess | undefined;
  let second: ServiceProcess | undefined;
  let browser: Browser | undefined;
  let recordingsDir = '';
  let gql: GraphQL;

  before(async function () {
    if (!(await isPostgresReachable())) {
      console.log('      ! PostgreSQL is not reachable: skipping the two-process room test');
      return this.skip();
    }
    database = await createTestDatabase('postgres');
    recordingsDir = await mkdtemp(join(tmpdir(), 'room-recordings-'));
    // One after the other: the first applies the migrations.
    first = await startServiceProcess(database, { RECORDINGS_DIR: recordingsDir });
    second = await startServiceProcess(database, { RECORDINGS_DIR: recordingsDir });
    const tenant = await createOAuthTenant(database.db, systemClock, 'rooms');
    const tokens = new TokenRequests(first.url, {
      client_id: tenant.app.client_id,
      secret: tenant.app.secret,
    });
    const issued = await tokens.clientCredentials(tenant.employer.id);
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const accessToken = issued.body.access_token as string;
    gql = async (query, variables) => {
      const response = await fetch(`${first!.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data?: any; errors?: unknown };
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return body.data;
    };
  });

  after(async () => {
    await browser?.close();
    await first?.stop();
    await second?.stop();
    await database?.dispose();
    if (recordingsDir) await rm(recordingsDir, { recursive: true, force: true });
  });

  async function createEvent() {
    const data = await gql(CREATE_EVENT, { input: eventStartingSoon() });
    const event = data.createVirtualInterviewEvent.event;
    const onSecond = (url: string) => `${second!.url}${new URL(url).pathname}`;
    return {
      id: event.id as string,
      interviewerUrl: event.interviewerLobbyUrl as string,
      // The interviewee's browser is served by the other process.
      intervieweeUrl: onSecond(event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl),
    };
  }

  it('admits, meets on video, records and ends with the two people on different processes', async function () {
    const launched = await launchChromium(FAKE_MEDIA_FLAGS);
    if (!launched) return this.skip();
    browser = launched;
    const people = new People(browser);
    try {
      const event = await createEvent();
      const { interviewer, interviewee } = await conductInterview({
        people,
        gql,
        eventId: event.id,
        ...event,
      });
      await recordAFewSeconds(gql, event.id, interviewer, interviewee);
      await endInterview(gql, event.id, interviewer, interviewee);
    } finally {
      await people.close();
    }
  });
});
