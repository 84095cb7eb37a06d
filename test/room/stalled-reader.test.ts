import assert from 'node:assert/strict';
import { volume } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import type { LiveClient } from '../support/live-client.js';
import { RoomCluster, waitFor } from '../support/room-cluster.js';

/** How long the flood lasts; the figure is 60 s (STALLED_READER_SECONDS=60). */
const FLOOD_SECONDS = volume('STALLED_READER_SECONDS', 20);
/** Per flooding connection, under the service's 100 messages a second. */
const MESSAGES_PER_SECOND = 90;
/** A signal of 60 KiB: inside the 64 KiB a live connection may send. */
const SIGNAL = { candidate: { candidate: 'x'.repeat(60 * 1024) } };
const MiB = 1024 * 1024;
/** Loose: a worker's heap is bounded at 160 MiB (WORKER_MAX_OLD_SPACE_MB). */
const RSS_BOUND = 400 * MiB;

/**
 * An admitted interviewee with three tabs stops reading one of them (a frozen tab) while the
 * other two send it WebRTC signals as fast as the service lets them: the service closes the
 * stalled connection instead of buffering for it, and no worker runs out of memory.
 */
describeEachDialect('a stalled reader flooded with signals [cluster]', (database) => {
  let room: RoomCluster | undefined;
  after(async () => {
    await room?.stop();
  });

  it(`is cut off while the workers stay alive and small (${FLOOD_SECONDS} s)`, async function () {
    this.timeout(FLOOD_SECONDS * 1000 + 120_000);
    room = await RoomCluster.start(database());
    const event = await room.createEvent();
    const cookie = await room.admit(event);

    // Somebody else's interview, whose lobby page must stay connected throughout.
    const elsewhere = await room.createEvent();
    const bystander = await room.live(
      elsewhere.interviewer,
      await room.interviewerCookie(elsewhere),
    );

    const interviewer = await room.live(event.interviewer, cookie);
    await room.join(interviewer);
    const tabs = [
      await room.live(event.interviewee),
      await room.live(event.interviewee),
      await room.live(event.interviewee),
    ];
    const [stalledId] = [
      await room.join(tabs[0]!),
      await room.join(tabs[1]!),
      await room.join(tabs[2]!),
    ];
    const [stalled, ...flooders] = tabs as [LiveClient, LiveClient, LiveClient];
    stalled.stopReading();
    const floodStart = Date.now();
    const cutOffAfter = interviewer
      .next('peer-left', (m) => m.peer.id === stalledId, FLOOD_SECONDS * 1000 + 20_000)
      .then(() => `${((Date.now() - floodStart) / 1000).toFixed(1)} s`)
      .catch(() => 'never');

    const idleRss = Math.max(...room.service.workerRss());
    let peakRss = 0;
    const sample = () => {
      peakRss = Math.max(peakRss, ...room!.service.workerRss());
    };
    const sampler = setInterval(sample, 250);
    const sent = [0, 0];
    try {
      await Promise.all(
        flooders.map((client, index) =>
          flood(client, stalledId, FLOOD_SECONDS * 1000, () => sent[index]!++),
        ),
      );
    } finally {
      clearInterval(sampler);
    }
    sample();
    console.log(
      `      stalled reader: ${sent[0]! + sent[1]!} signals of 60 KiB in ${FLOOD_SECONDS} s; ` +
        `worker RSS ${(idleRss / MiB).toFixed(0)} MiB before, peak ${(peakRss / MiB).toFixed(0)} MiB; crashes ${room.service.crashes().length}; ` +
        `cut off after ${await cutOffAfter}`,
    );

    assert.deepEqual(room.service.crashes(), [], room.service.output());
    assert.equal((await fetch(`${room.url}/readyz`)).status, 200);
    assert.ok(peakRss < RSS_BOUND, `a worker reached ${(peakRss / MiB).toFixed(0)} MiB`);
    assert.ok(bystander.isOpen, 'another event’s live connection was dropped');
    assert.ok(
      flooders.every((client) => client.isOpen),
      'a flooding tab was dropped',
    );

    // The stalled tab left the room, as any closed connection does.
    assert.notEqual(await cutOffAfter, 'never', 'the others never saw the stalled tab leave');
    const rows = await waitFor(
      () => database().db('room_connections').where({ id: stalledId }),
      (found) => found.length === 0,
    );
    assert.equal(rows.length, 0, 'the stalled connection is still in room_connections');
    stalled.resumeReading();
    await stalled.closed;
  });
});

/**
 * Sends `SIGNAL` to `to` at MESSAGES_PER_SECOND for `durationMs`, never more in any second
 * (the service closes a connection that sends more than 100), and not faster than the socket
 * takes them.
 */
async function flood(
  client: LiveClient,
  to: string,
  durationMs: number,
  onSent: () => void,
): Promise<void> {
  const sentAt: number[] = [];
  const end = Date.now() + durationMs;
  while (Date.now() < end && client.isOpen) {
    const now = Date.now();
    while (sentAt.length && sentAt[0]! <= now - 1000) sentAt.shift();
    const budget = Math.min(MESSAGES_PER_SECOND / 10, MESSAGES_PER_SECOND - sentAt.length);
    for (let i = 0; i < budget && client.bufferedAmount < 4 * MiB; i++) {
      client.send({ type: 'signal', to, data: SIGNAL });
      sentAt.push(now);
      onSent();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
