import assert from 'node:assert/strict';
import { tally } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { LiveClient, type RefusedUpgrade } from '../support/live-client.js';
import { RoomCluster } from '../support/room-cluster.js';
import { CLUSTER_WORKERS } from '../support/service-process.js';

/** More than the 100 live connections one worker holds for one event, on both workers. */
const ATTEMPTS = 220;
/** The defaults (README "Configuration"): per worker, per participant and per address. */
const PER_PARTICIPANT = 8;
const PER_ADDRESS = 32;

/**
 * One lobby link cannot take an event's live connections: past a few per participant, and past
 * a few more per address, the service refuses the upgrade with a 429 that says why, while the
 * interviewers still get into their room.
 */
describeEachDialect('live connections capped per participant and address [cluster]', (database) => {
  let room: RoomCluster | undefined;
  before(async function () {
    this.timeout(120_000);
    room = await RoomCluster.start(database());
  });
  afterEach(async () => {
    await room?.closeAll();
  });
  after(async () => {
    await room?.stop();
  });

  it('refuses one interviewee link past its cap, from any address, and lets the interviewer in', async function () {
    this.timeout(120_000);
    const event = await room!.createEvent();
    const cookie = await room!.admit(event);
    // From 20 addresses (127.0.1.x): the participant's cap holds whatever address they use.
    const answers = await openMany(ATTEMPTS, (index) =>
      room!.open(event.interviewee, undefined, { localAddress: `127.0.1.${(index % 20) + 1}` }),
    );
    const statuses = tally(answers, statusOf);
    console.log(
      `      ${ATTEMPTS} connections of one interviewee link: ${JSON.stringify(statuses)}`,
    );
    assert.ok(
      (statuses['101'] ?? 0) <= PER_PARTICIPANT * CLUSTER_WORKERS,
      JSON.stringify(statuses),
    );
    assert.equal(statuses['101']! + statuses['429']!, ATTEMPTS, JSON.stringify(statuses));
    const refusal = answers.find((answer) => !(answer instanceof LiveClient)) as RefusedUpgrade;
    assert.match(refusal.body, /Too many pages of this interview are open for you/);

    const interviewer = await room!.live(event.interviewer, cookie);
    await room!.join(interviewer);
  });

  it('refuses one address past its cap across events, and lets others in', async function () {
    this.timeout(120_000);
    const events = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => room!.createEvent()));
    const cookies = await Promise.all(events.map((event) => room!.interviewerCookie(event)));
    const address = { localAddress: '127.0.2.1' };
    const answers = await openMany(ATTEMPTS, (index) => {
      const which = index % events.length;
      return room!.open(events[which]!.interviewer, cookies[which], address);
    });
    const statuses = tally(answers, statusOf);
    console.log(`      ${ATTEMPTS} connections from one address: ${JSON.stringify(statuses)}`);
    assert.ok((statuses['101'] ?? 0) <= PER_ADDRESS * CLUSTER_WORKERS, JSON.stringify(statuses));
    assert.equal(statuses['101']! + statuses['429']!, ATTEMPTS, JSON.stringify(statuses));
    const refusal = answers.find((answer) => !(answer instanceof LiveClient)) as RefusedUpgrade;
    assert.match(refusal.body, /Too many live connections from your address/);

    // Somebody else, on one of those events, still gets in.
    const other = await room!.live(events[0]!.interviewee, undefined, {
      localAddress: '127.0.2.2',
    });
    assert.ok(other.isOpen);
  });
});

function statusOf(answer: LiveClient | RefusedUpgrade): string {
  return answer instanceof LiveClient ? '101' : String(answer.status);
}

/** Opens `count` connections ten at a time, as quickly as a script would. */
async function openMany(
  count: number,
  open: (index: number) => Promise<LiveClient | RefusedUpgrade>,
): Promise<Array<LiveClient | RefusedUpgrade>> {
  const answers: Array<LiveClient | RefusedUpgrade> = [];
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, (_, i) => open(start + i));
    answers.push(...(await Promise.all(batch)));
  }
  return answers;
}
