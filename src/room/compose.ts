import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Interviews } from '../interviews/compose.js';
import type { Lobby } from '../lobby/compose.js';
import type { Recordings } from '../recordings/compose.js';
import type { RealtimeBus } from '../realtime/compose.js';
import type { SharedDependencies } from '../shared-dependencies.js';
import { LiveConnections } from './live/live-connections.js';
import { RoomService } from './room-service.js';
import { RoomStore } from './room-store.js';

/** The interview rooms and the live connections of the interview pages. */
export interface Room {
  /** Takes a WebSocket upgrade for a live path (true); the caller refuses any other. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Tells everyone on the event's pages that a recording starts or stops. */
  recordingChanged(eventId: string, change: { recordingId: string; active: boolean }): void;
  /** Orphaned connections leave; interviews whose room stayed empty past the grace period end. */
  sweepNow(): Promise<string[]>;
  /** Leaves the rooms this process holds connections in and closes them (not the bus). */
  close(): Promise<void>;
}

export function composeRoom(
  shared: SharedDependencies,
  deps: {
    interviews: Interviews;
    lobby: Lobby;
    recordings: Recordings;
    bus: RealtimeBus;
  },
): Room {
  const { config, clock, logger } = shared;
  const service = roomService(shared, deps.interviews);
  const { bus } = deps;
  const live = new LiveConnections({
    lifecycle: deps.interviews.lifecycle,
    room: service,
    changes: deps.interviews.changes,
    bus,
    recallInterviewer: (req, place) => deps.lobby.identities.recall(req, place),
    notFoundPage: () => deps.lobby.notFoundHtml(),
    activeRecording: (eventId) => deps.recordings.service.active(eventId),
    publicUrl: config.publicUrl,
    iceServers: config.room.iceServers,
    maxVideoParticipants: config.room.maxVideoParticipants,
    limits: config.room.live,
    trustProxy: config.trustProxy,
    logger,
  });
  const sweepNow = async () => {
    const ended = await service.sweep(clock.now());
    for (const eventId of ended) deps.interviews.changes.changed(eventId);
    return ended;
  };
  const timer =
    config.sweepIntervalMs > 0
      ? setInterval(() => {
          sweepNow().catch((error: unknown) =>
            logger.error({ err: error }, 'interview room sweep failed'),
          );
        }, config.sweepIntervalMs)
      : null;
  timer?.unref();
  return {
    upgrade: (req, socket, head) => live.upgrade(req, socket, head),
    recordingChanged: (eventId, change) => live.recordingChanged(eventId, change),
    sweepNow,
    async close() {
      if (timer) clearInterval(timer);
      await live.close();
    },
  };
}

/**
 * The room's time-driven step alone, without live connections, for the CLI's `interviews sweep`:
 * a deployment that sweeps from cron (SWEEP_INTERVAL_MS=0) still drops dead processes'
 * connections and ends abandoned interviews. Open pages see the end at their next refresh.
 * Returns the ids of the events whose interview it ended.
 */
export function composeRoomSweep(
  shared: SharedDependencies,
  deps: { interviews: Pick<Interviews, 'rooms'> },
): () => Promise<string[]> {
  const service = roomService(shared, deps.interviews);
  return () => service.sweep(shared.clock.now());
}

/** The room's connections, whose meaning for the interview the lifecycle's room part decides. */
function roomService(
  shared: SharedDependencies,
  interviews: Pick<Interviews, 'rooms'>,
): RoomService {
  const { config } = shared;
  return new RoomService(new RoomStore(shared.db), interviews.rooms, shared.clock, {
    maxVideoParticipants: config.room.maxVideoParticipants,
    emptyGraceMs: config.room.emptyGraceMs,
  });
}
