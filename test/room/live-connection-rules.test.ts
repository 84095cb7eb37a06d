import assert from 'node:assert/strict';
import { ConnectionLimits, isRefusal } from '../../src/room/connection-limits.js';
import { MembershipQueue, type MembershipChange } from '../../src/room/membership-queue.js';

/** A queue whose changes each wait until the test lets them finish. */
function recordingQueue() {
  const applied: string[] = [];
  const gates: Array<() => void> = [];
  const queue = new MembershipQueue(async (change: MembershipChange) => {
    applied.push(change.kind === 'join' ? 'join' : `leave${change.notice ? ':notice' : ''}`);
    await new Promise<void>((resolve) => gates.push(resolve));
  });
  const finishAll = async () => {
    while (gates.length || queue.busy) {
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { queue, applied, finishAll };
}

describe('a live connection’s membership changes', () => {
  it('runs them one at a time, in order', async () => {
    const { queue, applied, finishAll } = recordingQueue();
    void queue.request({ kind: 'join', video: false });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(applied, ['join']);
    void queue.request({ kind: 'leave' });
    void queue.request({ kind: 'join', video: true });
    assert.deepEqual(applied, ['join'], 'nothing starts while a change runs');
    await finishAll();
    assert.deepEqual(applied, ['join', 'leave', 'join']);
  });

  it('keeps at most two waiting, ending in the state of the last request', async () => {
    const { queue, applied, finishAll } = recordingQueue();
    void queue.request({ kind: 'join', video: false });
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 1000; i++) {
      void queue.request({ kind: 'leave' });
      void queue.request({ kind: 'join', video: false });
    }
    void queue.request({ kind: 'leave', notice: { type: 'removed', message: 'sent back' } });
    await finishAll();
    assert.deepEqual(applied, ['join', 'leave:notice']);

    void queue.request({ kind: 'leave' });
    void queue.request({ kind: 'join', video: false });
    void queue.request({ kind: 'join', video: true });
    await finishAll();
    assert.deepEqual(applied.slice(2), ['leave', 'join']);
  });

  it('takes nothing after close but still leaves', async () => {
    const { queue, applied, finishAll } = recordingQueue();
    void queue.request({ kind: 'join', video: false });
    void queue.close();
    void queue.request({ kind: 'join', video: false });
    await finishAll();
    assert.deepEqual(applied, ['leave']);
  });
});

describe('live connection caps of one process', () => {
  const limits = new ConnectionLimits({
    sendBufferMaxBytes: 1 << 20,
    perEvent: 5,
    perParticipant: 2,
    perAddress: 2,
  });
  const holder = (participant: string, address: string, eventId = 'e1') => ({
    eventId,
    participant: { role: 'interviewee' as const, id: participant },
    address,
  });

  it('refuses the newest past a cap and takes one again once a place is given back', () => {
    const first = limits.take(holder('p', 'a1'));
    const second = limits.take(holder('p', 'a2'));
    const third = limits.take(holder('p', 'a3'));
    assert.ok(!isRefusal(first) && !isRefusal(second));
    assert.ok(isRefusal(third) && third.status === 429);
    first.release();
    first.release();
    const again = limits.take(holder('p', 'a3'));
    assert.ok(!isRefusal(again));

    // Per address, across participants and events.
    const others = [holder('q', 'a3'), holder('r', 'a3', 'e2')].map((h) => limits.take(h));
    assert.ok(!isRefusal(others[0]!));
    assert.ok(isRefusal(others[1]!) && /your address/.test(others[1].message));
    assert.ok(limits.refusalForAddress('a3'));
    assert.equal(limits.refusalForAddress('a4'), null);

    // Per event: five places (three taken), whoever holds them.
    const rest = ['s', 't', 'u'].map((p, i) => limits.take(holder(p, `b${i}`)));
    assert.deepEqual(
      rest.map((taken) => (isRefusal(taken) ? taken.status : 'taken')),
      ['taken', 'taken', 503],
    );
  });
});
