import type { Clock } from '../clock.js';
import type { EpochMs, RoomConnectionRow } from '../db/rows.js';
import {
  TransitionRefused,
  type LobbyAccess,
} from '../interviews/lifecycle/interview-lifecycle.js';
import { settleEvent } from '../interviews/lifecycle/settle.js';
import { eventTransition, intervieweeTransition } from '../interviews/lifecycle/state-machines.js';
import { InterviewNotices } from '../interviews/interview-notices.js';
import { NO_WEBHOOKS, type WebhookOutbox } from '../webhooks/outbox.js';
import type { RoomStore } from './room-store.js';

/** Who a connection belongs to, as its capability link and identity cookie say. */
export interface RoomParticipant {
  role: 'interviewer' | 'interviewee';
  /** The interviewer's or the interviewee's id. */
  id: string;
}

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
  /** ARCHIVE_AFTER_DAYS in milliseconds, to settle the event's status by the clock. */
  archiveAfterMs: number;
}

/** A connection whose process has not moved `seen_at` for this long is gone (its process died). */
export const CONNECTION_ORPHANED_AFTER_MS = 60_000;
/** How often a process moves `seen_at` of the connections it holds. */
export const CONNECTION_TOUCH_INTERVAL_MS = 20_000;

const BATCH = 200;

/**
 * Who is in an event's interview room, and what that means for the interview record (DESIGN §5):
 * a record starts at the first moment the interviewee and at least one interviewer are both
 * connected, as the connections the service itself holds show; when everyone has left a started
 * interview for longer than the grace period, the interview ends at the moment the room emptied.
 *
 * Every change locks the event, so entries and departures of one room (from any process) happen
 * one after another and the start time is decided exactly once.
 */
export class RoomService {
  constructor(
    private readonly store: RoomStore,
    private readonly clock: Clock,
    private readonly rules: RoomRules,
    /** Hears of the event starting and of records starting and ending, in their transaction. */
    private readonly outbox: WebhookOutbox = NO_WEBHOOKS,
  ) {}

  /** The people of an event who may be in its room, for names in the participant list. */
  async people(eventId: string): Promise<RoomPerson[]> {
    const [interviewers, interviewee] = await Promise.all([
      this.store.interviewersOf(eventId),
      this.store.intervieweeOf(eventId),
    ]);
    const people: RoomPerson[] = interviewers.map((row) => ({
      role: 'interviewer',
      id: row.id,
      name: row.name ?? 'Interviewer',
    }));
    if (interviewee)
      people.push({ role: 'interviewee', id: interviewee.id, name: interviewee.name });
    return people;
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
   * Puts a connection in the room. Interviewers may wait there while the event is open; the
   * interviewee only while admitted (INTERVIEWING). Throws TransitionRefused with the reason.
   */
  async enter(
    eventId: string,
    participant: RoomParticipant,
    connectionId: string,
    offersVideo: boolean,
  ): Promise<RoomEntry> {
    return this.store.inTransaction(async (store, tx) => {
      const row = await store.lockEvent(eventId);
      if (!row) throw new TransitionRefused('There is no such interview event.');
      const now = this.clock.now();
      const status = settleEvent(row, now, this.rules.archiveAfterMs).status;
      const joining = eventTransition(status, 'join');
      if (!joining.allowed) throw new TransitionRefused(joining.refusal);
      const notices = new InterviewNotices(row, status, now);
      if (joining.next !== row.status) {
        await store.moveEvent(eventId, new Map([[row.status, joining.next]]), {
          started_at: now,
          updated_at: now,
        });
        notices.eventMoved(joining.next);
      }
      const interviewee = await store.intervieweeOf(eventId);
      if (participant.role === 'interviewer') {
        if (!(await store.interviewer(eventId, participant.id))) {
          throw new TransitionRefused('You are not an interviewer of this event.');
        }
      } else if (!interviewee || interviewee.id !== participant.id) {
        throw new TransitionRefused('You are not the interviewee of this event.');
      } else if (interviewee.status !== 'INTERVIEWING') {
        throw new TransitionRefused(
          'You have not been let into the room yet. Wait in the lobby until an interviewer admits you.',
        );
      }

      const present = await store.connectionsOf(eventId, now - CONNECTION_ORPHANED_AFTER_MS);
      const videoSenders = present.filter((connection) => connection.video).length;
      const phone = row.media_type === 'PHONE';
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

      const record = interviewee ? await store.openRecordOf(interviewee.id) : undefined;
      if (record && interviewee?.status === 'INTERVIEWING') {
        const roles = new Set([...present.map((c) => c.role), participant.role]);
        const together = roles.has('interviewer') && roles.has('interviewee');
        const patch: { start_at?: EpochMs; room_emptied_at?: null } = {};
        if (together && record.start_at === null) {
          patch.start_at = now;
          notices.recordStarted(record.id, interviewee.id);
        }
        if (record.room_emptied_at != null) patch.room_emptied_at = null;
        if (Object.keys(patch).length) await store.updateRecord(record.id, patch);
      }
      await notices.recordIn(this.outbox, tx);
      return {
        video,
        videoRefusal:
          offersVideo && !video && !phone
            ? `This room already has ${this.rules.maxVideoParticipants} people on camera, the most ` +
              'it allows. You joined with audio only; the others still hear you.'
            : null,
        present,
      };
    });
  }

  /**
   * Takes a connection out of the room (it left, closed, or was sent back). When that empties
   * the room of a started interview, the grace period starts at `leftAt`.
   */
  async leave(eventId: string, connectionId: string, leftAt?: EpochMs): Promise<boolean> {
    return this.store.inTransaction(async (store) => {
      const row = await store.lockEvent(eventId);
      if (!row) return false;
      if (!(await store.removeConnection(eventId, connectionId))) return false;
      const now = this.clock.now();
      const remaining = await store.connectionsOf(eventId, now - CONNECTION_ORPHANED_AFTER_MS);
      if (remaining.length) return true;
      const interviewee = await store.intervieweeOf(eventId);
      const record = interviewee ? await store.openRecordOf(interviewee.id) : undefined;
      if (record && record.start_at !== null && record.room_emptied_at == null) {
        await store.updateRecord(record.id, { room_emptied_at: leftAt ?? now });
      }
      return true;
    });
  }

  /** Moves `seen_at` of the connections this process holds, so nobody takes them for orphans. */
  touch(connectionIds: readonly string[]): Promise<void> {
    return this.store.touchConnections(connectionIds, this.clock.now());
  }

  /**
   * The time-driven part, run by the sweeper: connections of dead processes leave (as of when
   * they were last seen), then interviews whose room stayed empty past the grace period end.
   * Returns the events whose interview ended, so that their pages can be told.
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
    const ended: string[] = [];
    const due = await this.store.abandonedRecords(now - this.rules.emptyGraceMs, BATCH);
    for (const record of due) {
      if (await this.endAbandoned(record.event_id, record.id, now)) ended.push(record.event_id);
    }
    return ended;
  }

  /** Ends one abandoned interview if it still is: open, started, and nobody came back. */
  private endAbandoned(eventId: string, recordId: string, now: EpochMs): Promise<boolean> {
    return this.store.inTransaction(async (store, tx) => {
      const row = await store.lockEvent(eventId);
      const status = row && settleEvent(row, now, this.rules.archiveAfterMs).status;
      if (!status || !eventTransition(status, 'end').allowed) return false;
      const record = await store.record(eventId, recordId);
      const emptiedAt = record?.room_emptied_at;
      if (!record || record.end_at !== null || emptiedAt == null) return false;
      if (emptiedAt > now - this.rules.emptyGraceMs) return false;
      if ((await store.connectionsOf(eventId, now - CONNECTION_ORPHANED_AFTER_MS)).length)
        return false;
      const interviewee = await store.intervieweeOf(eventId);
      if (!interviewee || interviewee.id !== record.interviewee_id) return false;
      const finishing = intervieweeTransition(interviewee.status, 'finish');
      if (!finishing.allowed) return false;
      await store.moveInterviewee(interviewee.id, new Map([[interviewee.status, finishing.next]]), {
        updated_at: now,
      });
      await store.updateRecord(record.id, { end_at: emptiedAt });
      await new InterviewNotices(row, status, now)
        .intervieweeMoved(interviewee.id, interviewee.status, finishing.next)
        .recordEnded(record.id, interviewee.id)
        .recordIn(this.outbox, tx);
      return true;
    });
  }
}
