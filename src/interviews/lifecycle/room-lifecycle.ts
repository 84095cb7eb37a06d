import type { EpochMs, EventRow } from '../../db/rows.js';
import type { Transaction } from '../../db/transactions.js';
import { TransitionRefused } from './interview-lifecycle.js';
import type { LifecycleStore } from './lifecycle-store.js';
import type { LockedEvents } from './locked-events.js';
import { eventTransition, intervieweeTransition } from './state-machines.js';

/** Who a room connection belongs to, as its capability link and identity cookie say. */
export interface RoomParticipant {
  role: 'interviewer' | 'interviewee';
  /** The interviewer's or the interviewee's id. */
  id: string;
}

/** The people of an event who may be in its room, as the lifecycle knows them. */
export interface RoomCast {
  interviewers: Array<{ id: string; name: string | null }>;
  interviewee: { id: string; name: string } | null;
}

/**
 * What the room writes of its own (who is connected) inside an entry's transaction, at `now`;
 * `roles` are the roles in the room once the connection is in.
 */
export type Occupy<T> = (
  tx: Transaction,
  at: { now: EpochMs; mediaType: EventRow['media_type'] },
) => Promise<{ value: T; roles: ReadonlySet<RoomParticipant['role']> }>;

/**
 * What the room removes inside a departure's transaction: `left` when this call took the
 * connection out, `empty` when nobody is left in the room.
 */
export type Vacate = (tx: Transaction, now: EpochMs) => Promise<{ left: boolean; empty: boolean }>;

/** Whether the event's room is empty, asked inside the transaction that would end its interview. */
export type RoomIsEmpty = (tx: Transaction, eventId: string, now: EpochMs) => Promise<boolean>;

/** Abandoned interviews read per query. */
const BATCH = 200;

/**
 * The room's transitions of the interview (DESIGN §5): entering the room starts the event, and
 * the record starts at the first moment the interviewee and an interviewer are both in it;
 * when everyone has left a started interview for longer than the grace period, the interview
 * ends at the moment the room emptied. The room (src/room) keeps who is connected and hands its
 * part in as callbacks that run in the same transaction, on the locked event, so that entries
 * and departures of one room (from any process) happen one after another and the start time is
 * decided exactly once.
 */
export class RoomLifecycle {
  constructor(
    private readonly store: LifecycleStore,
    private readonly events: LockedEvents,
  ) {}

  /** The event's interviewers and interviewee, for names in the participant list. */
  async cast(eventId: string): Promise<RoomCast> {
    const [interviewers, interviewee] = await Promise.all([
      this.store.interviewersOf(eventId),
      this.store.intervieweeOf(eventId),
    ]);
    return {
      interviewers: interviewers.map(({ id, name }) => ({ id, name })),
      interviewee: interviewee ? { id: interviewee.id, name: interviewee.name } : null,
    };
  }

  /**
   * Lets a connection into the room, `occupy` writing it there. Interviewers may wait there
   * while the event is open; the interviewee only while admitted (INTERVIEWING). Throws
   * TransitionRefused with the reason, before `occupy` runs.
   */
  enter<T>(eventId: string, participant: RoomParticipant, occupy: Occupy<T>): Promise<T> {
    return this.events.run(
      eventId,
      async ({ row, settled, now, store, notices, tx }) => {
        const joining = eventTransition(settled.status, 'join');
        if (!joining.allowed) throw new TransitionRefused(joining.refusal);
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

        const { value, roles } = await occupy(tx, { now, mediaType: row.media_type });

        const record = interviewee ? await store.openRecordOf(interviewee.id) : undefined;
        if (record && interviewee?.status === 'INTERVIEWING') {
          const together = roles.has('interviewer') && roles.has('interviewee');
          const patch: { start_at?: EpochMs; room_emptied_at?: null } = {};
          if (together && record.start_at === null) {
            patch.start_at = now;
            notices.recordStarted(record.id, interviewee.id);
          }
          if (record.room_emptied_at != null) patch.room_emptied_at = null;
          if (Object.keys(patch).length) await store.updateRecord(record.id, patch);
        }
        return value;
      },
      () => {
        throw new TransitionRefused('There is no such interview event.');
      },
    );
  }

  /**
   * Takes a connection out of the room, `vacate` removing it; true when this call did. When
   * that empties the room of a started interview, the grace period starts at `leftAt`.
   */
  leave(eventId: string, vacate: Vacate, leftAt?: EpochMs): Promise<boolean> {
    return this.events.run(
      eventId,
      async ({ now, store, tx }) => {
        const { left, empty } = await vacate(tx, now);
        if (!left) return false;
        if (!empty) return true;
        const interviewee = await store.intervieweeOf(eventId);
        const record = interviewee ? await store.openRecordOf(interviewee.id) : undefined;
        if (record && record.start_at !== null && record.room_emptied_at == null) {
          await store.updateRecord(record.id, { room_emptied_at: leftAt ?? now });
        }
        return true;
      },
      () => false,
    );
  }

  /**
   * Ends the interviews whose room has stayed empty since `graceMs` before `now`, at the moment
   * the room emptied; `isEmpty` confirms nobody came back. Returns their events' ids.
   */
  async endAbandoned(now: EpochMs, graceMs: number, isEmpty: RoomIsEmpty): Promise<string[]> {
    const ended: string[] = [];
    const due = await this.store.abandonedRecords(now - graceMs, BATCH);
    for (const record of due) {
      if (await this.endOneAbandoned(record.event_id, record.id, now, graceMs, isEmpty)) {
        ended.push(record.event_id);
      }
    }
    return ended;
  }

  /** Ends one abandoned interview if it still is: open, started, and nobody came back. */
  private endOneAbandoned(
    eventId: string,
    recordId: string,
    now: EpochMs,
    graceMs: number,
    isEmpty: RoomIsEmpty,
  ): Promise<boolean> {
    return this.events.run(
      eventId,
      async ({ settled, store, notices, tx }) => {
        if (!eventTransition(settled.status, 'end').allowed) return false;
        const record = await store.record(eventId, recordId);
        const emptiedAt = record?.room_emptied_at;
        if (!record || record.end_at !== null || emptiedAt == null) return false;
        if (emptiedAt > now - graceMs) return false;
        if (!(await isEmpty(tx, eventId, now))) return false;
        const interviewee = await store.intervieweeOf(eventId);
        if (!interviewee || interviewee.id !== record.interviewee_id) return false;
        const finishing = intervieweeTransition(interviewee.status, 'finish');
        if (!finishing.allowed) return false;
        const moves = new Map([[interviewee.status, finishing.next]]);
        await store.moveInterviewee(interviewee.id, moves, { updated_at: now });
        await store.updateRecord(record.id, { end_at: emptiedAt });
        notices
          .intervieweeMoved(interviewee.id, interviewee.status, finishing.next)
          .recordEnded(record.id, interviewee.id);
        return true;
      },
      () => false,
      { at: now },
    );
  }
}
