import assert from 'node:assert/strict';
import { up as normaliseStoredNotes } from '../../src/db/migrations/0027_decision_note_newlines.js';
import type { Principal } from '../../src/oauth/principal.js';
import { ConsoleClient, locationOf, unescapeHtml } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event {
    id interviewerLobbyUrl
    interviewersConnection { interviewers { id email } }
    intervieweesConnection { interviewees { intervieweeLobbyUrl } }
  } } }`;

const READ = `query($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events {
  interviewersConnection { interviewers { id email name } }
  intervieweesConnection { interviewees { interviewRecordsConnection { records {
    id
    interviewOutcomesConnection {
      outcomes { interviewer { id name } decision { value noteText } }
    }
  } } } }
} } }`;

const INVITED = 'ana@example.com';

/**
 * Issue 21, items 3, 5 and 7 on the real service: two interviewers give their names in the
 * lobby, one of them decides, and the Interview API reports both by name with one outcome each.
 */
describeEachDialect('interviewer names and outcomes per interviewer', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    const tenant = await insertTenant(database().db, 'names');
    const principal: Principal = {
      kind: 'user',
      userId: tenant.userId,
      appId: tenant.appId,
      clientId: 'names-client',
      jti: 'names-token',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    service = await startTestService(database(), {
      authenticate: async (token) => (token === 'scheduler' ? principal : null),
    });
  });
  after(async () => {
    await service?.stop();
  });

  async function graphql(query: string, variables: object) {
    const { body } = await postGraphQL(service.url, 'scheduler', { query, variables });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  }

  /** An event with its creator and one invited interviewer, and an interviewee. */
  async function schedule() {
    const start = Date.now() + 3_600_000;
    const data = await graphql(CREATE, {
      input: {
        title: 'Two interviewers',
        startTime: new Date(start).toISOString(),
        endTime: new Date(start + 3_600_000).toISOString(),
        timezone: 'Europe/Berlin',
        interviewers: [{ email: INVITED }],
        interviewee: { name: 'Kim Candidate', email: 'kim@example.com' },
        requestMetadata: { atsName: 'Names test' },
      },
    });
    const event = data.createVirtualInterviewEvent.event;
    const [creator, invited] = event.interviewersConnection.interviewers;
    assert.equal(invited.email, INVITED);
    return {
      id: event.id as string,
      creator: creator as { id: string; email: string },
      invited: invited as { id: string; email: string },
      interviewerPath: new URL(event.interviewerLobbyUrl).pathname,
      intervieweePath: new URL(event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl)
        .pathname,
    };
  }

  async function identify(path: string, email: string, name: string) {
    const browser = new ConsoleClient(service.url);
    const answer = await browser.submit(path, `${path}/identify`, { email, name });
    assert.equal(answer.status, 303, answer.body);
    return browser;
  }

  it('reports both interviewers by the names they gave, and an outcome each, decided or not', async () => {
    const event = await schedule();
    const interviewee = new ConsoleClient(service.url);
    const checkIn = await interviewee.submit(
      event.intervieweePath,
      `${event.intervieweePath}/check-in`,
      {},
    );
    assert.equal(checkIn.status, 303);

    const lee = await identify(event.interviewerPath, event.creator.email, 'Lee Creator');
    const ana = await identify(event.interviewerPath, INVITED.toUpperCase(), '  Ana Álvarez ');
    const lobby = await ana.get(event.interviewerPath);
    assert.match(unescapeHtml(lobby.body), /you are <strong>Ana Álvarez<\/strong>/);

    const page = event.interviewerPath;
    assert.equal((await ana.submit(page, `${page}/admit`, {})).status, 303);
    const ended = await ana.submit(page, `${page}/end-interview`, { confirmed: 'yes' });
    assert.equal(ended.status, 303);
    const [{ id: recordId }] = await records(event.id);
    const saved = await ana.submit(page, `${page}/decision`, {
      record_id: recordId,
      decision: 'YES',
      // As a browser sends a textarea: lines end in \r\n (and a stray \r from a paste).
      note: 'Strong on SQL.\r\nAsk about tests.\rPair next time.',
    });
    assert.equal(saved.status, 303, saved.body);
    const confirmation = await ana.get(locationOf(saved));
    assert.match(
      confirmation.body,
      /<p class="notice success-notice" role="status">Your decision on Interview 1 is saved: Yes\.<\/p>/,
    );
    // Lee has not decided: the page confirms nothing to him.
    assert.doesNotMatch((await lee.get(page)).body, /role="status"/);

    const data = await graphql(READ, { ids: [event.id] });
    const [stored] = data.virtualInterviewEvents.events;
    assert.deepEqual(stored.interviewersConnection.interviewers, [
      { ...event.creator, name: 'Lee Creator' },
      { ...event.invited, name: 'Ana Álvarez' },
    ]);
    const [record] =
      stored.intervieweesConnection.interviewees[0].interviewRecordsConnection.records;
    assert.deepEqual(record.interviewOutcomesConnection.outcomes, [
      { interviewer: { id: event.creator.id, name: 'Lee Creator' }, decision: null },
      {
        interviewer: { id: event.invited.id, name: 'Ana Álvarez' },
        decision: { value: 'YES', noteText: 'Strong on SQL.\nAsk about tests.\nPair next time.' },
      },
    ]);

    // The interviewee sees the names, never an email.
    const intervieweePage = unescapeHtml((await interviewee.get(event.intervieweePath)).body);
    assert.match(intervieweePage, /Lee Creator and Ana Álvarez/);
    assert.doesNotMatch(intervieweePage, /ana@example\.com/i);
  });

  it('keeps a name given once, and refuses a bad one with 400 and the form again', async () => {
    const event = await schedule();
    const path = event.interviewerPath;
    await identify(path, INVITED, 'Ana Álvarez');
    // Identifying again (another browser, a new day) without a name keeps it.
    await identify(path, INVITED, '');
    for (const name of ['Ana\u0000', 'Ana\u200b\u0007', 'A'.repeat(101)]) {
      const browser = new ConsoleClient(service.url);
      const answer = await browser.submit(path, `${path}/identify`, { email: INVITED, name });
      assert.equal(answer.status, 400, JSON.stringify(name));
      assert.match(
        answer.body,
        /Name must (not contain control characters|be at most 100 characters)\./,
      );
      assert.match(answer.body, /<label for="name">Your name<\/label>/);
      assert.equal(browser.cookie('hpa_lobby_interviewer'), undefined);
    }
    const data = await graphql(READ, { ids: [event.id] });
    const names = data.virtualInterviewEvents.events[0].interviewersConnection.interviewers.map(
      (interviewer: { name: string | null }) => interviewer.name,
    );
    assert.deepEqual(names, [null, 'Ana Álvarez']);
  });

  it('reads notes stored with \\r\\n before normalising back with \\n once migrated', async () => {
    const event = await schedule();
    const ana = await identify(event.interviewerPath, INVITED, 'Ana');
    const page = event.interviewerPath;
    const checkIn = await new ConsoleClient(service.url).submit(
      event.intervieweePath,
      `${event.intervieweePath}/check-in`,
      {},
    );
    assert.equal(checkIn.status, 303);
    assert.equal((await ana.submit(page, `${page}/admit`, {})).status, 303);
    const [{ id: recordId }] = await records(event.id);
    const saved = await ana.submit(page, `${page}/decision`, {
      record_id: recordId,
      decision: 'NO',
      note: 'new',
    });
    assert.equal(saved.status, 303);
    // As a note saved before notes were normalised.
    const { db } = database();
    await db('interview_outcomes')
      .where({ record_id: recordId })
      .update({ note_text: 'Old note,\r\nsecond line\rthird' });
    await normaliseStoredNotes(db);
    const [record] = await records(event.id);
    assert.deepEqual(record.interviewOutcomesConnection.outcomes[1].decision, {
      value: 'NO',
      noteText: 'Old note,\nsecond line\nthird',
    });
  });

  async function records(eventId: string) {
    const data = await graphql(READ, { ids: [eventId] });
    return data.virtualInterviewEvents.events[0].intervieweesConnection.interviewees[0]
      .interviewRecordsConnection.records;
  }
});
