import assert from 'node:assert/strict';
import { createConnection } from 'node:net';
import { systemClock } from '../../src/clock.js';
import {
  createTestDatabase,
  isPostgresReachable,
  type Dialect,
  type TestDatabase,
} from '../support/databases.js';
import { LiveClient } from '../support/live-client.js';
import { interviewerCookie, postLobbyStep } from '../support/lobby-forms.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { TokenRequests } from '../support/token-requests.js';
import { CREATE_EVENT, INTERVIEWER, eventStartingSoon } from './conduct-interview.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

function redisReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: 6379, timeout: 2000 });
    const answer = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
    socket.once('timeout', () => answer(false));
  });
}

const TRANSPORTS: Array<{
  name: string;
  dialect: Dialect;
  env: Record<string, string>;
  available: () => Promise<boolean>;
}> = [
  {
    name: 'PostgreSQL LISTEN/NOTIFY',
    dialect: 'postgres',
    env: {},
    available: isPostgresReachable,
  },
  {
    name: 'Redis pub/sub, SQLite',
    dialect: 'sqlite',
    env: { REDIS_URL },
    available: redisReachable,
  },
];

for (const transport of TRANSPORTS) {
  /**
   * The interviewer's connection on one service process, the interviewee's on another: lobby
   * changes, room presence and WebRTC signals cross between them.
   */
  describe(`room signalling between two service processes [${transport.name}]`, function () {
    this.timeout(60_000);
    let database: (TestDatabase & { dispose(): Promise<void> }) | undefined;
    let first: ServiceProcess | undefined;
    let second: ServiceProcess | undefined;
    let accessToken = '';
    const open: LiveClient[] = [];

    before(async function () {
      if (!(await transport.available())) {
        console.log(`      ! ${transport.name} is not reachable: skipping`);
        return this.skip();
      }
      database = await createTestDatabase(transport.dialect);
      first = await startServiceProcess(database, transport.env);
      second = await startServiceProcess(database, transport.env);
      const tenant = await createOAuthTenant(database.db, systemClock, 'signals');
      const issued = await new TokenRequests(first.url, {
        client_id: tenant.app.client_id,
        secret: tenant.app.secret,
      }).clientCredentials(tenant.employer.id);
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      accessToken = issued.body.access_token;
    });
    after(async () => {
      for (const client of open) await client.close();
      await first?.stop();
      await second?.stop();
      await database?.dispose();
    });

    async function live(base: string, path: string, cookie?: string): Promise<LiveClient> {
      const client = await LiveClient.connect(`${base}${path}/live`, cookie ? { cookie } : {});
      open.push(client);
      await client.next('hello');
      return client;
    }

    it('carries changes, presence and signals across, and sends the interviewee back', async () => {
      const created = await fetch(`${first!.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: CREATE_EVENT, variables: { input: eventStartingSoon() } }),
      });
      const body = (await created.json()) as any;
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      const event = body.data.createVirtualInterviewEvent.event;
      const interviewerPath = new URL(event.interviewerLobbyUrl).pathname;
      const intervieweePath = new URL(
        event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl,
      ).pathname;
      const cookie = await interviewerCookie(first!.url, interviewerPath, INTERVIEWER);

      const lobby = await live(first!.url, interviewerPath, cookie);
      await postLobbyStep(second!.url, intervieweePath, 'check-in');
      await lobby.next('changed', undefined, 10_000);

      const candidate = await live(second!.url, intervieweePath);
      await postLobbyStep(first!.url, interviewerPath, 'admit', cookie);
      await candidate.next('changed', undefined, 10_000);

      lobby.send({ type: 'join', video: true });
      const interviewerRoom = await lobby.next('room');
      candidate.send({ type: 'join', video: true });
      const candidateRoom = await candidate.next('room');
      assert.deepEqual(
        candidateRoom.peers.map((peer: { id: string }) => peer.id),
        [interviewerRoom.you.id],
        'the interviewee sees the interviewer held by the other process',
      );
      const joined = await lobby.next('peer-joined', undefined, 10_000);
      assert.equal(joined.peer.id, candidateRoom.you.id);

      // An offer one way, an answer and a candidate the other, in order.
      candidate.send({
        type: 'signal',
        to: interviewerRoom.you.id,
        data: { description: { type: 'offer', sdp: 'o' } },
      });
      assert.deepEqual((await lobby.next('signal', undefined, 10_000)).data, {
        description: { type: 'offer', sdp: 'o' },
      });
      lobby.send({
        type: 'signal',
        to: candidateRoom.you.id,
        data: { description: { type: 'answer' } },
      });
      lobby.send({
        type: 'signal',
        to: candidateRoom.you.id,
        data: { candidate: { candidate: 'c1' } },
      });
      assert.deepEqual((await candidate.next('signal', undefined, 10_000)).data, {
        description: { type: 'answer' },
      });
      assert.deepEqual((await candidate.next('signal', undefined, 10_000)).data, {
        candidate: { candidate: 'c1' },
      });

      await postLobbyStep(first!.url, interviewerPath, 'send-back', cookie);
      await candidate.next('removed', undefined, 10_000);
      const left = await lobby.next('peer-left', undefined, 10_000);
      assert.equal(left.peer.id, candidateRoom.you.id);
    });
  });
}
