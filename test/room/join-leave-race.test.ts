import assert from 'node:assert/strict';
import { volume } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import type { LiveClient } from '../support/live-client.js';
import { RoomCluster, errorLines, waitFor } from '../support/room-cluster.js';

/** Leave-then-join pairs each connection sends, as fast as the service lets it. */
const ALTERNATIONS = volume('JOIN_LEAVE_ALTERNATIONS', 300);
/**
 * Well under the service's 100 messages a second per connection: the service counts messages as
 * it reads them, so a worker that stalls on a busy machine reads a burst sent over more than a
 * second within one of its own (at 90 a second, a 2-core machine under other load saw 101).
 */
const MESSAGES_PER_SECOND = 60;

/**
 * Six connections of one room (interviewers and the admitted interviewee, spread over both
 * workers) each alternate `join` and `leave` hundreds of times without waiting for answers: every
 * connection ends up in the room exactly when its last message was `join`, nothing is logged as
 * an error, and once they close the room is empty.
 */
describeEachDialect('join and leave alternated fast on live connections [cluster]', (database) => {
  let room: RoomCluster | undefined;
  after(async () => {
    await room?.stop();
  });

  it(`ends in the state of each connection's last message (${ALTERNATIONS} alternations)`, async function () {
    this.timeout(180_000);
    room = await RoomCluster.start(database());
    const event = await room.createEvent();
    const cookie = await room.admit(event);
    const clients: LiveClient[] = [];
    for (let i = 0; i < 4; i++) clients.push(await room.live(event.interviewer, cookie));
    for (let i = 0; i < 2; i++) clients.push(await room.live(event.interviewee));
    const ids = [];
    for (const client of clients) ids.push(await room.join(client));

    // Every second connection ends with `leave`, the others with `join`.
    await Promise.all(
      clients.map((client, index) => {
        const messages: object[] = [];
        for (let i = 0; i < ALTERNATIONS; i++) messages.push({ type: 'leave' }, { type: 'join' });
        if (index % 2 === 1) messages.push({ type: 'leave' });
        return sendPaced(client, messages);
      }),
    );
    assert.ok(
      clients.every((client) => client.isOpen),
      'a connection was closed for its pace',
    );
    const expected = ids.filter((_, index) => index % 2 === 0).sort();
    const inRoom = () =>
      database()
        .db('room_connections')
        .where({ event_id: event.id })
        .pluck('id')
        .then((found: string[]) => found.sort());
    const settled = await waitFor(inRoom, (found) => found.join() === expected.join());
    const errors = errorLines(room.service.output());
    console.log(
      `      ${clients.length} × ${ALTERNATIONS} alternations: ${settled.length} of ` +
        `${expected.length} expected in the room, ${errors.length} error lines`,
    );
    assert.deepEqual({ inRoom: settled, errors }, { inRoom: expected, errors: [] });

    await room.closeAll();
    assert.deepEqual(await waitFor(inRoom, (found) => found.length === 0), []);
    assert.deepEqual(errorLines(room.service.output()), []);
    assert.deepEqual(room.service.crashes(), []);
  });
});

/** Sends `messages` in order, never more than MESSAGES_PER_SECOND in any second. */
async function sendPaced(client: LiveClient, messages: object[]): Promise<void> {
  const sentAt: number[] = [];
  let next = 0;
  while (next < messages.length && client.isOpen) {
    const now = Date.now();
    while (sentAt.length && sentAt[0]! <= now - 1000) sentAt.shift();
    const budget = Math.min(MESSAGES_PER_SECOND / 10, MESSAGES_PER_SECOND - sentAt.length);
    for (let i = 0; i < budget && next < messages.length; i++) {
      client.send(messages[next++]!);
      sentAt.push(now);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
