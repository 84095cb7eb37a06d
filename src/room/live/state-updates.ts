import type { Logger } from 'pino';
import type { InterviewLifecycle } from '../../interviews/lifecycle/interview-lifecycle.js';
import type { RoomService } from '../room-service.js';
import { departureNotice, roomState } from '../room-state.js';
import type { ConnectionRegistry } from './connection-registry.js';
import type { LiveConnection } from './live-connection.js';

/** How soon a state that could not be read is read again for the pages still waiting for it. */
const RETRY_MS = 1000;

/** What the next read of an event is for. */
interface Wanted {
  /** The event changed: every page is told, and the room re-checked. */
  everyone: boolean;
  /** Connections that just opened and have not been told the state yet. */
  newcomers: Set<LiveConnection>;
}

/**
 * Tells the pages of an event its state (`RoomState`): a connection as soon as it opens (so
 * that nothing that happened while it was opening is missed: it is registered before the read),
 * and every connection after each change. After a change, whoever may no longer be in the room
 * leaves it and is told why.
 *
 * One read runs at a time per event, so a page is never told an older state after a newer one;
 * whatever arrives while a read runs is served by one more read, however much it is, so a burst
 * of changes or connections never piles up reads.
 */
export class StateUpdates {
  /** Events being read, with what the next read is for. */
  private readonly queued = new Map<string, Wanted>();

  constructor(
    private readonly lifecycle: InterviewLifecycle,
    private readonly room: RoomService,
    private readonly connections: ConnectionRegistry,
    private readonly logger: Logger,
  ) {}

  changed(eventId: string): void {
    this.want(eventId, { everyone: true, newcomers: new Set() });
  }

  opened(connection: LiveConnection): void {
    this.want(connection.eventId, { everyone: false, newcomers: new Set([connection]) });
  }

  private want(eventId: string, wanted: Wanted): void {
    const next = this.queued.get(eventId);
    if (next) {
      next.everyone ||= wanted.everyone;
      for (const connection of wanted.newcomers) next.newcomers.add(connection);
      return;
    }
    this.queued.set(eventId, wanted);
    void this.drain(eventId);
  }

  private async drain(eventId: string): Promise<void> {
    for (;;) {
      const wanted = this.queued.get(eventId);
      if (!wanted || (!wanted.everyone && wanted.newcomers.size === 0)) {
        this.queued.delete(eventId);
        return;
      }
      this.queued.set(eventId, { everyone: false, newcomers: new Set() });
      await this.read(eventId, wanted);
    }
  }

  private async read(eventId: string, wanted: Wanted): Promise<void> {
    const here = this.connections.ofEvent(eventId);
    const told = wanted.everyone ? here : here.filter((c) => wanted.newcomers.has(c));
    // Only the connections in the room before the read are judged by it: one that joins
    // meanwhile was let in on fresher state, and the change that let it in reads again.
    const judged = wanted.everyone ? here.filter((c) => c.peer || c.membership.busy) : [];
    if (!told.length && !judged.length) return;
    try {
      const [view, present] = await Promise.all([
        this.lifecycle.view(eventId),
        this.room.present(eventId),
      ]);
      const state = roomState(view, present);
      for (const connection of told) connection.send(state);
      for (const connection of judged) {
        const notice = departureNotice(view, connection.participant);
        if (notice) void connection.membership.request({ kind: 'leave', notice });
      }
    } catch (error) {
      this.logger.error({ err: error, eventId }, 'the state of an interview could not be read');
      const waiting = told.filter((connection) => connection.open);
      if (!waiting.length && !judged.length) return;
      const again = { everyone: wanted.everyone, newcomers: new Set(waiting) };
      setTimeout(() => this.want(eventId, again), RETRY_MS).unref();
    }
  }
}
