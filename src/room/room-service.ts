import type { Clock } from '../clock.js';
import type { EpochMs, RoomConnectionRow } from '../db/rows.js';
import type { LobbyAccess } from '../interviews/lifecycle/interview-lifecycle.js';
import type { RoomLifecycle, RoomParticipant } from '../interviews/lifecycle/room-lifecycle.js';
import type { RoomStore } from './room-store.js';

export type { RoomParticipant };

export interface RoomPerson extends RoomParticipant {
  name: string;
}

export interface RoomEntry {
  /** Whether this connection may send video (never on a PHONE event; not beyond the maximum). */
  video: boolean;
  /** Why video was refused although the browser offered it, for the person. */
  videoRefusal: string | null;
  /** The connections already in the room, oldest first. */
  present: RoomConnectionRow[];
}

export interface RoomRules {
  maxVideoParticipants: number;
  /** How long a started interview's room may stay empty before the interview ends. */
  emptyGraceMs: number;
}

/** A connection whose process has not moved `seen_at` for this long is gone (its process died). */
export const CONNECTION_ORPHANED_AFTER_MS = 60_000;
/** How often a process moves `seen_at` of the connections it holds. */
export const CONNECTION_TOUCH_INTERVAL_MS = 20_000;

const BATCH = 200;

/**
 * Who is in an event's interview room: one row per connection (`room_connections`), whichever
 * process holds it. What that means for the interview (the event starting, the record's start,
 * an abandoned interview ending; DESIGN §5) is the lifecycle's (`RoomLifecycle`), which runs
 * each entry and departure in one transaction on the locked event and calls back here for the
 * connection rows.
 */
export class RoomService {
  constructor(
    private readonly store: RoomStore,
    private readonly lifecycle: RoomLifecycle,
    private readonly clock: Clock,
    private readonly rules: RoomRules,
  ) {}

  /** The people of an event who may be in its room, for names in the participant list. */
  async people(eventId: string): Promise<RoomPerson[]> {
    const { interviewers, interviewee } = await this.lifecycle.cast(eventId);
    const people: RoomPerson[] = interviewers.map((row) => ({
      role: 'interviewer',
      id: row.id,
      name: row.name ?? 'Interviewer',
    }));
    if (interviewee)
      people.push({ role: 'interviewee', id: interviewee.id, name: interviewee.name });
    return people;
  }

  /** The connections in the event's room now, whichever process holds them, oldest first. */
  present(eventId: string): Promise<RoomConnectionRow[]> {
    return this.store.connectionsOf(eventId, this.clock.now() - CONNECTION_ORPHANED_AFTER_MS);
  }

  /** Who a capability link (and, for interviewers, the remembered identity) lets into the room. */
  participantOf(access: LobbyAccess, interviewerId: string | null): RoomParticipant | null {
    if (access.role === 'interviewee' && access.intervieweeId) {
      return { role: 'interviewee', id: access.intervieweeId };
    }
    if (access.role === 'interviewer' && interviewerId)
      return { role: 'interviewer', id: interviewerId };
    return null;
  }

  /**
   * Puts a connection in the room, if the lifecycle lets the participant in (it throws
   * TransitionRefused with the reason): with video unless the event is by phone or the room
   * already has its most people on camera.
   */
  enter(
    eventId: string,
    participant: RoomParticipant,
    connectionId: string,
    offersVideo: boolean,
  ): Promise<RoomEntry> {
    return this.lifecycle.enter(eventId, participant, async (tx, { now, mediaType }) => {
      const store = this.store.on(tx);
      const present = await store.connectionsOf(eventId, now - CONNECTION_ORPHANED_AFTER_MS);
      const videoSenders = present.filter((connection) => connection.video).length;
      const phone = mediaType === 'PHONE';
      const full = videoSenders >= this.rules.maxVideoParticipants;
      const video = offersVideo && !phone && !full;
      await store.addConnection({
        id: connectionId,
        event_id: eventId,
        role: participant.role,
        participant_id: participant.id,
        video,
        connected_at: now,
        seen_at: now,
      });
      const entry: RoomEntry = {
        video,
        videoRefusal:
          offersVideo && !video && !phone
            ? `This room already has ${this.rules.maxVideoParticipants} people on camera, the most ` +
              'it allows. You joined with audio only; the others still hear you.'
            : null,
        present,
      };
      return { value: entry, roles: new Set([...present.map((c) => c.role), participant.role]) };
    });
  }

  /**
   * Takes a connection out of the room (it left, closed, or was sent back). When that empties
   * the room of a started interview, the grace period starts at `leftAt`.
   */
  leave(eventId: string, connectionId: string, leftAt?: EpochMs): Promise<boolean> {
    return this.lifecycle.leave(
      eventId,
      async (tx, now) => {
        const store = this.store.on(tx);
        if (!(await store.removeConnection(eventId, connectionId))) {
          return { left: false, empty: false };
        }
        const remaining = await store.connectionsOf(eventId, now - CONNECTION_ORPHANED_AFTER_MS);
        return { left: true, empty: remaining.length === 0 };
      },
      leftAt,
    );
  }

  /** Moves `seen_at` of the connections this process holds, so nobody takes them for orphans. */
  touch(connectionIds: readonly string[]): Promise<void> {
    return this.store.touchConnections(connectionIds, this.clock.now());
  }

  /**
   * The time-driven part, run by the sweeper: connections of dead processes leave (as of when
   * they were last seen), then the lifecycle ends interviews whose room stayed empty past the
   * grace period. Returns the events whose interview ended, so that their pages can be told.
   */
  async sweep(now: EpochMs): Promise<string[]> {
    for (;;) {
      const orphans = await this.store.orphanedConnections(
        now - CONNECTION_ORPHANED_AFTER_MS,
        BATCH,
      );
      for (const orphan of orphans) await this.leave(orphan.event_id, orphan.id, orphan.seen_at);
      if (orphans.length < BATCH) break;
    }
    return this.lifecycle.endAbandoned(now, this.rules.emptyGraceMs, async (tx, eventId, at) => {
      const present = await this.store
        .on(tx)
        .connectionsOf(eventId, at - CONNECTION_ORPHANED_AFTER_MS);
      return present.length === 0;
    });
  }
}
