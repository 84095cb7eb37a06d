import assert from 'node:assert/strict';
import type { Principal } from '../../src/oauth/principal.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { LiveClient, type RefusedUpgrade } from '../support/live-client.js';
import {
  interviewerCookie as identify,
  lobbyPageCredentials,
  postLobbyStep,
} from '../support/lobby-forms.js';
import { startTestService } from '../support/service.js';

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event {
    id interviewerLobbyUrl interviewLandingPageUrl
    intervieweesConnection { interviewees { intervieweeLobbyUrl } }
  } } }`;

const INTERVIEWER = 'lee@example.com';

interface OpenedEvent {
  id: string;
  interviewer: string;
  interviewee: string;
  landing: string;
}

/**
 * The live connections of the interview pages over a real socket: authorised exactly like the
 * pages, confined to one event's room, and carrying lobby changes and WebRTC signals.
 */
describeEachDialect('live connections of the interview pages', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  const open: LiveClient[] = [];

  before(async () => {
    const tenant = await insertTenant(database().db, 'live');
    const principal: Principal = {
      kind: 'app',
      appId: tenant.appId,
      ownerUserId: tenant.userId,
      clientId: 'live-client',
      jti: 'live-token',
      employerId: tenant.employerId,
      scopes: ['employer_access'],
    };
    service = await startTestService(database(), { authenticate: async () => principal });
  });
  afterEach(async () => {
    for (const client of open.splice(0)) await client.close();
  });
  after(async () => {
    await service?.stop();
  });

  async function createEvent(): Promise<OpenedEvent> {
    const start = Date.now() + 10 * 60_000;
    const { body } = await postGraphQL(service.url, 'scheduler', {
      query: CREATE,
      variables: {
        input: {
          title: 'Live round',
          startTime: new Date(start).toISOString(),
          endTime: new Date(start + 3600_000).toISOString(),
          timezone: 'Europe/Berlin',
          interviewers: [{ email: INTERVIEWER }],
          interviewee: { name: 'Kim Candidate', email: 'kim@example.com' },
          requestMetadata: { atsName: 'Live test' },
        },
      },
    });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    const event = body.data.createVirtualInterviewEvent.event;
    const path = (url: string) => new URL(url).pathname;
    return {
      id: event.id,
      interviewer: path(event.interviewerLobbyUrl),
      interviewee: path(event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl),
      landing: path(event.interviewLandingPageUrl),
    };
  }

  const interviewerCookie = (event: OpenedEvent, email = INTERVIEWER) =>
    identify(service.url, event.interviewer, email);

  const step = (event: OpenedEvent, cookie: string | null, action: string) =>
    cookie
      ? postLobbyStep(service.url, event.interviewer, action, cookie)
      : postLobbyStep(service.url, event.interviewee, action);

  async function live(path: string, headers: Record<string, string> = {}): Promise<LiveClient> {
    const client = await LiveClient.connect(`${service.url}${path}/live`, headers);
    open.push(client);
    await client.next('hello');
    return client;
  }

  async function refused(path: string, headers: Record<string, string> = {}) {
    const answer = await LiveClient.open(`${service.url}${path}/live`, headers);
    assert.ok(!(answer instanceof LiveClient), `${path} was let in`);
    return answer as RefusedUpgrade;
  }

  it('refuses wrong, altered and other-kind links with the lobby pages’ one 404', async () => {
    const event = await createEvent();
    const cookie = await interviewerCookie(event);
    const notFound = await fetch(`${service.url}/lobby/interviewee/${'x'.repeat(43)}`);
    assert.equal(notFound.status, 404);
    const page = await notFound.text();
    const token = event.interviewee.split('/').pop()!;
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [
      `/lobby/interviewee/${'x'.repeat(43)}`,
      `/lobby/interviewee/${altered}`,
      `/lobby/interviewer/${event.interviewee.split('/').pop()}`,
      `/lobby/interviewee/${event.interviewer.split('/').pop()}`,
      `/lobby/interviewer/${event.landing.split('/').pop()}`,
    ]) {
      const answer = await refused(path, { cookie });
      assert.equal(answer.status, 404, path);
      assert.equal(answer.body, page, path);
    }
    // A path that is no live connection at all is no upgrade either.
    assert.equal((await refused('/lobby/interviewee')).status, 404);
  });

  it('refuses an interviewer link without the identity cookie, and other sites', async () => {
    const event = await createEvent();
    assert.equal((await refused(event.interviewer)).status, 403);
    const cookie = await interviewerCookie(event);
    const other = await refused(event.interviewer, { cookie, origin: 'https://evil.example' });
    assert.equal(other.status, 403);
    const sameSite = await live(event.interviewer, { cookie, origin: service.url });
    assert.ok(sameSite);
  });

  it('tells both lobbies about every change, and lets the interviewee in only once admitted', async () => {
    const event = await createEvent();
    const cookie = await interviewerCookie(event);
    const lobby = await live(event.interviewer, { cookie });
    const candidate = await live(event.interviewee);

    candidate.send({ type: 'join', video: true });
    const notYet = await candidate.next('refused');
    assert.match(notYet.message, /not been let into the room yet/);

    await step(event, null, 'check-in');
    await lobby.next('changed');
    await candidate.next('changed');
    await step(event, cookie, 'admit');
    await lobby.next('changed');
    await candidate.next('changed');

    lobby.send({ type: 'join', video: true });
    const alone = await lobby.next('room');
    assert.deepEqual(alone.peers, []);
    candidate.send({ type: 'join', video: true });
    const entered = await candidate.next('room');
    assert.equal(entered.peers.length, 1);
    assert.equal(entered.peers[0].role, 'interviewer');
    const joined = await lobby.next('peer-joined');
    assert.equal(joined.peer.id, entered.you.id);
    assert.equal(joined.peer.name, 'Kim Candidate');

    // Signals reach exactly the connection they are addressed to.
    candidate.send({ type: 'signal', to: alone.you.id, data: { description: { type: 'offer' } } });
    const signal = await lobby.next('signal');
    assert.equal(signal.from, entered.you.id);
    assert.deepEqual(signal.data, { description: { type: 'offer' } });

    // Sent back: the interviewee leaves the room and is told so.
    await step(event, cookie, 'send-back');
    const removed = await candidate.next('removed');
    assert.match(removed.message, /sent you back to the lobby/);
    const left = await lobby.next('peer-left');
    assert.equal(left.peer.id, entered.you.id);
  });

  it('keeps every room to itself: no signal crosses into another event', async () => {
    const [mine, theirs] = [await createEvent(), await createEvent()];
    for (const event of [mine, theirs]) await step(event, null, 'check-in');
    const myCookie = await interviewerCookie(mine);
    const theirCookie = await interviewerCookie(theirs);
    await step(mine, myCookie, 'admit');

    const me = await live(mine.interviewer, { cookie: myCookie });
    me.send({ type: 'join', video: false });
    const myRoom = await me.next('room');
    const candidate = await live(mine.interviewee);
    candidate.send({ type: 'join', video: false });
    const candidateRoom = await candidate.next('room');

    const stranger = await live(theirs.interviewer, { cookie: theirCookie });
    stranger.send({ type: 'join', video: false });
    const strangerRoom = await stranger.next('room');
    assert.deepEqual(strangerRoom.peers, [], 'another event’s room is empty');
    stranger.send({
      type: 'signal',
      to: candidateRoom.you.id,
      data: { candidate: { candidate: 'x' } },
    });
    stranger.send({ type: 'signal', to: myRoom.you.id, data: { candidate: { candidate: 'x' } } });
    assert.equal(await candidate.staysWithout('signal', 400), true);
    assert.equal(await me.staysWithout('signal', 0), true);

    // A cookie of one event's lobby opens nothing on another event's lobby.
    assert.equal((await refused(theirs.interviewer, { cookie: myCookie })).status, 403);
  });

  it('announces a recording to the pages open, and to a page opened while it runs', async () => {
    const event = await createEvent();
    await step(event, null, 'check-in');
    const cookie = await interviewerCookie(event);
    await step(event, cookie, 'admit');
    const before = await live(event.interviewee);

    const credentials = await lobbyPageCredentials(service.url, event.interviewer, cookie);
    const started = await fetch(new URL(`${event.interviewer}/recordings`, service.url), {
      method: 'POST',
      headers: { cookie: credentials.cookie, 'x-csrf-token': credentials.csrf },
    });
    assert.equal(started.status, 201, await started.clone().text());
    const { id } = (await started.json()) as { id: string };

    const told = await before.next('recording');
    assert.equal(told.active, true);
    assert.equal(told.recordingId, id);
    assert.ok(told.startsAt > Date.now() - 1000, 'the recording begins after the notice');
    const later = await live(event.interviewee);
    const toldLater = await later.next('recording');
    assert.deepEqual([toldLater.active, toldLater.recordingId], [true, id]);
  });

  it('answers malformed messages with "invalid", acts on none, and keeps working', async () => {
    const event = await createEvent();
    const cookie = await interviewerCookie(event);
    const lobby = await live(event.interviewer, { cookie });
    const raw = lobby as unknown as { socket: { send(data: string): void } };
    const junk = [
      '',
      'null',
      '[]',
      '{"type":"signal","to":"../x","data":{}}',
      '{"type":"join","video":"yes"}',
      '{'.repeat(500),
    ];
    for (const text of junk) raw.socket.send(text);
    for (const _ of junk) assert.match((await lobby.next('invalid')).message, /The message is/);
    // A second join while the first is decided is ignored, not an error or a second entry.
    lobby.send({ type: 'join', video: true });
    lobby.send({ type: 'join', video: true });
    assert.deepEqual((await lobby.next('room')).peers, []);
    assert.equal(await lobby.staysWithout('room', 300), true);
    assert.equal(await lobby.staysWithout('refused', 0), true);
    const rows = await database().db('room_connections').where({ event_id: event.id });
    assert.equal(rows.length, 1);
  });

  it('tells a page the state when it connects and after every change', async () => {
    const event = await createEvent();
    const cookie = await interviewerCookie(event);
    const lobby = await live(event.interviewer, { cookie });
    const first = await lobby.next('state');
    assert.deepEqual(first, {
      type: 'state',
      eventStatus: 'SCHEDULED',
      interviewee: { name: 'Kim Candidate', status: 'RSVPED' },
      present: [],
      admission: { canAdmit: false, canSendBack: false, refusal: null },
    });

    await step(event, null, 'check-in');
    const arrived = await lobby.next('state', (m) => m.interviewee.status === 'CHECKED_IN');
    assert.deepEqual(arrived.admission, { canAdmit: true, canSendBack: false, refusal: null });
    assert.equal(arrived.eventStatus, 'STARTED');

    lobby.send({ type: 'join', video: false });
    await lobby.next('room');
    const inRoom = await lobby.next('state', (m) => m.present.length === 1);
    assert.deepEqual(inRoom.present, [{ role: 'interviewer', name: 'Interviewer' }]);

    // A page that connects now learns all of it at once.
    const later = await live(event.interviewee);
    const told = await later.next('state');
    assert.deepEqual([told.interviewee.status, told.present.length], ['CHECKED_IN', 1]);
  });

  it('admits and sends back from the room, as the interviewer, through the lifecycle', async () => {
    const event = await createEvent();
    const cookie = await interviewerCookie(event);
    const interviewer = await live(event.interviewer, { cookie });
    const candidate = await live(event.interviewee);

    interviewer.send({ type: 'admit' });
    const early = await interviewer.next('admission-refused');
    assert.equal(early.message, 'The interviewee has not checked in yet.');

    candidate.send({ type: 'admit' });
    const notAllowed = await candidate.next('admission-refused');
    assert.match(notAllowed.message, /Only an interviewer/);

    await step(event, null, 'check-in');
    await interviewer.next('state', (m) => m.admission.canAdmit);
    interviewer.send({ type: 'admit' });
    const admitted = await candidate.next('state', (m) => m.interviewee.status === 'INTERVIEWING');
    assert.deepEqual(admitted.admission, { canAdmit: false, canSendBack: true, refusal: null });

    candidate.send({ type: 'join', video: true });
    await candidate.next('room');
    interviewer.send({ type: 'send-back' });
    assert.equal(
      (await candidate.next('removed')).message,
      'An interviewer sent you back to the lobby.',
    );
    const requeued = await interviewer.next('state', (m) => m.interviewee.status === 'REQUEUED');
    assert.equal(requeued.admission.canAdmit, true);
    const rows = await database().db('room_connections').where({ event_id: event.id });
    assert.equal(rows.length, 0, 'the interviewee left the room');
  });
});
