import type { RoomNotice } from './protocol/messages.js';

/** One change of a connection's room membership, asked by its browser or by the service. */
export type MembershipChange =
  { kind: 'join'; video: boolean } | { kind: 'leave'; notice?: RoomNotice };

/**
 * The room membership changes of one live connection, carried out strictly one after another
 * in the order they were asked (a `leave` never overtakes the `join` before it, whichever worker
 * or database transaction is faster), with at most two waiting whatever a browser sends: a
 * change that the next one undoes before it could have started is dropped, so the final state
 * is always that of the last request.
 *
 * - `join` after a waiting `join` is ignored (a connection in the room joining again is too);
 * - `leave` drops a waiting `join` (it would have been left at once) and merges with a waiting
 *   `leave`, keeping the service's notice if either has one;
 * - `join` after a waiting `leave` waits behind it: the connection leaves, then enters afresh.
 *
 * After `close()`, only the changes already waiting run, and nothing more is taken.
 */
export class MembershipQueue {
  private readonly waiting: MembershipChange[] = [];
  private running: Promise<void> | null = null;
  private closed = false;

  /**
   * `apply` carries out one change and is never called twice at once; it reports its own
   * failures (one that throws anyway is not retried, and the next change still runs).
   */
  constructor(private readonly apply: (change: MembershipChange) => Promise<void>) {}

  /** Queues `change`; resolves once every change asked so far has been carried out. */
  request(change: MembershipChange): Promise<void> {
    if (!this.closed) enqueue(this.waiting, change);
    this.running ??= this.drain();
    return this.running;
  }

  /** True while a change waits or runs. */
  get busy(): boolean {
    return this.running !== null;
  }

  /** Asks for a last `leave` and takes nothing after it; resolves once it has been carried out. */
  close(notice?: RoomNotice): Promise<void> {
    const done = this.request({ kind: 'leave', notice });
    this.closed = true;
    return done;
  }

  private async drain(): Promise<void> {
    // From the next microtask on, so that request() has stored this promise before it ends.
    await undefined;
    for (;;) {
      const next = this.waiting.shift();
      if (!next) {
        // No await between the empty check and this: a later request starts a new drain.
        this.running = null;
        return;
      }
      await this.apply(next).catch(() => {});
    }
  }
}

function enqueue(waiting: MembershipChange[], change: MembershipChange): void {
  const last = waiting.at(-1);
  if (change.kind === 'join') {
    if (last?.kind !== 'join') waiting.push(change);
    return;
  }
  if (last?.kind === 'join') waiting.pop();
  const before = waiting.at(-1);
  if (before?.kind === 'leave') {
    before.notice ??= change.notice;
    return;
  }
  waiting.push(change);
}
