import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { IntervieweeRow } from '../../db/rows.js';
import {
  DECISION_VALUES,
  isDecisionValue,
  type DecisionValue,
  type LobbyRole,
} from '../vocabulary.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { sha256Hex } from '../../security/random.js';
import type { SecretBox } from '../../security/secret-box.js';
import { linksFromTokens } from '../lobby-links.js';
import { admissionRefusal } from '../rules/admissions.js';
import { INTERVIEWER_NAME_MAX } from '../rules/interviewers.js';
import { optionalText, requiredText } from '../rules/text.js';
import {
  TransitionRefused,
  type InterviewLifecycle,
  type LobbyAccess,
  type LobbyView,
} from './interview-lifecycle.js';
import { endEvent } from './event-ending.js';
import { EventChanges } from '../event-changes.js';
import { NO_WEBHOOKS, type WebhookOutbox } from '../../webhooks/outbox.js';
import type { LifecycleStore } from './lifecycle-store.js';
import { lobbyView } from './lobby-view.js';
import { settleEvent } from './settle.js';
import {
  allowedOrRefuse,
  changed,
  eventNotFound,
  invitedInterviewer,
} from './transition-guards.js';
import { LockedEvents, type LockedEvent } from './locked-events.js';
import {
  decisionRefusal,
  eventTransition,
  intervieweeTransition,
  type IntervieweeAction,
} from './state-machines.js';

const NOTE_MAX = 5000;
/** Tokens are 43 characters; anything much longer is not worth hashing. */
const TOKEN_MAX = 200;

/**
 * The interview lifecycle behind the lobby pages (DESIGN §5). Each action is one transaction
 * that locks the event, settles it by the clock, asks the state machines, and then writes with
 * conditional UPDATEs; a refusal throws TransitionRefused before anything is written.
 */
export class InterviewLifecycleService implements InterviewLifecycle {
  private readonly events: LockedEvents;

  constructor(
    private readonly store: LifecycleStore,
    private readonly lobbyTokenBox: SecretBox,
    private readonly publicUrl: string,
    private readonly clock: Clock,
    /** ARCHIVE_AFTER_DAYS, in milliseconds (see archiveDelayMs). */
    private readonly archiveAfterMs: number,
    private readonly changes: EventChanges = new EventChanges(),
    /** Hears of every committed change, in its transaction (DESIGN §8). */
    private readonly outbox: WebhookOutbox = NO_WEBHOOKS,
  ) {
    this.events = new LockedEvents(store, clock, archiveAfterMs, outbox);
  }

  async access(role: LobbyRole, token: string): Promise<LobbyAccess | null> {
    if (!token || token.length > TOKEN_MAX) return null;
    const row = await this.store.lobbyToken(role, sha256Hex(token));
    return row
      ? { role: row.role, eventId: row.event_id, intervieweeId: row.interviewee_id }
      : null;
  }

  async view(eventId: string): Promise<LobbyView> {
    const stored = await this.store.readSnapshot(async (store) => {
      const event = await store.findEvent(eventId);
      if (!event) throw eventNotFound();
      const interviewee = await store.intervieweeOf(eventId);
      const records = interviewee ? await store.recordsOf(interviewee.id) : [];
      return {
        event,
        interviewee: interviewee ?? null,
        records,
        interviewers: await store.interviewersOf(eventId),
        outcomes: await store.outcomesOf(records.map((record) => record.id)),
        links: linksFromTokens(
          await store.lobbyTokensOf(eventId),
          this.lobbyTokenBox,
          this.publicUrl,
        ),
      };
    });
    const now = this.clock.now();
    return lobbyView(stored, settleEvent(stored.event, now, this.archiveAfterMs), now);
  }

  async checkIn(eventId: string, intervieweeId: string): Promise<void> {
    await this.withLockedEvent(eventId, async ({ row, settled, now, store, notices }) => {
      const interviewee = await store.intervieweeOf(eventId);
      if (!interviewee || interviewee.id !== intervieweeId) throw intervieweeNotFound();
      const eventNext = allowedOrRefuse(eventTransition(settled.status, 'join'));
      const next = allowedOrRefuse(intervieweeTransition(interviewee.status, 'checkIn'));
      if (eventNext !== row.status) {
        await changed(
          store.moveEvent(eventId, new Map([[row.status, eventNext]]), {
            started_at: now,
            updated_at: now,
          }),
        );
        notices.eventMoved(eventNext);
      }
      if (next !== interviewee.status) {
        await changed(
          store.moveInterviewee(interviewee.id, new Map([[interviewee.status, next]]), {
            checked_in_at: now,
            updated_at: now,
          }),
        );
        notices.intervieweeMoved(interviewee.id, interviewee.status, next);
      }
    });
  }

  async findInterviewer(
    eventId: string,
    email: string,
  ): Promise<{ id: string; email: string; name: string | null } | null> {
    const row = await this.store.interviewerByEmail(eventId, email.trim().toLowerCase());
    return row ? { id: row.id, email: row.email, name: row.name } : null;
  }

  async nameInterviewer(eventId: string, interviewerId: string, name: string): Promise<void> {
    const text = requiredText(name, 'name', INTERVIEWER_NAME_MAX);
    if (!(await this.store.nameInterviewer(eventId, interviewerId, text))) {
      throw new NotFoundError('You are not an interviewer of this event.', 'interviewerId');
    }
    // The interviewee lobby and the room show the names.
    this.changes.changed(eventId);
  }

  async admit(eventId: string, interviewerId: string): Promise<void> {
    await this.actOnInterviewee(
      eventId,
      interviewerId,
      'admit',
      async ({ store, now }, interviewee) => {
        // Under the event lock, so two interviewers admitting at once cannot both pass the cap.
        const refusal = admissionRefusal(await store.recordCountOf(interviewee.id));
        if (refusal) throw new TransitionRefused(refusal);
        try {
          // The record starts when the interviewee and an interviewer are both in the room
          // (src/room/room-service.ts), not at admission.
          await store.openRecord({
            id: randomUUID(),
            event_id: eventId,
            interviewee_id: interviewee.id,
            start_at: null,
            end_at: null,
            recording_url: null,
            created_at: now,
          });
        } catch (error) {
          // The partial unique index: another interviewer opened a record first.
          if (isUniqueViolation(error)) throw admittedByAnother();
          throw error;
        }
      },
    );
  }

  async sendBack(eventId: string, interviewerId: string): Promise<void> {
    await this.actOnInterviewee(eventId, interviewerId, 'sendBack', closeOpenRecord);
  }

  async endInterview(eventId: string, interviewerId: string): Promise<void> {
    await this.actOnInterviewee(eventId, interviewerId, 'finish', closeOpenRecord);
  }

  async recordDecision(
    eventId: string,
    interviewerId: string,
    recordId: string,
    decision: DecisionValue,
    note: string | null,
  ): Promise<void> {
    if (!isDecisionValue(decision)) {
      throw new ValidationError(
        `decision must be one of ${DECISION_VALUES.join(', ')}`,
        'decision',
      );
    }
    const noteText = optionalText(note, 'note', NOTE_MAX, 'multi');
    await this.withLockedEvent(eventId, async ({ settled, now, store, notices }) => {
      await invitedInterviewer(store, eventId, interviewerId);
      const refusal = decisionRefusal(settled.status);
      if (refusal) throw new TransitionRefused(refusal);
      if (!(await store.record(eventId, recordId))) {
        throw new NotFoundError('There is no such interview record in this event.', 'recordId');
      }
      const [before] = (await store.outcomesOf([recordId])).filter(
        (outcome) => outcome.interviewer_id === interviewerId,
      );
      if (before?.decision !== decision || before.note_text !== noteText) {
        notices.decisionRecorded(recordId, interviewerId, decision);
      }
      await store.saveOutcome({
        id: randomUUID(),
        record_id: recordId,
        interviewer_id: interviewerId,
        decision,
        note_text: noteText,
        created_at: now,
        updated_at: now,
      });
    });
  }

  async endEvent(eventId: string, interviewerId: string): Promise<void> {
    await this.withLockedEvent(eventId, async ({ row, settled, now, store, notices }) => {
      await invitedInterviewer(store, eventId, interviewerId);
      allowedOrRefuse(eventTransition(settled.status, 'end'));
      // A refusal above covers an event the clock has already ended, so the row is still open.
      await changed(endEvent(store, row.id, now, now, notices));
    });
  }

  /**
   * An interviewer's action on the event's interviewee: the event must still be open, the
   * interviewee machine must allow the action, and `work` writes what goes with it.
   */
  private async actOnInterviewee(
    eventId: string,
    interviewerId: string,
    action: Extract<IntervieweeAction, 'admit' | 'sendBack' | 'finish'>,
    work: (event: LockedEvent, interviewee: IntervieweeRow) => Promise<void>,
  ): Promise<void> {
    await this.withLockedEvent(eventId, async (event) => {
      const { settled, now, store, notices } = event;
      await invitedInterviewer(store, eventId, interviewerId);
      allowedOrRefuse(eventTransition(settled.status, 'join'));
      const interviewee = await store.intervieweeOf(eventId);
      if (!interviewee) throw new TransitionRefused('This event has no interviewee yet.');
      const next = allowedOrRefuse(intervieweeTransition(interviewee.status, action));
      await changed(
        store.moveInterviewee(interviewee.id, new Map([[interviewee.status, next]]), {
          updated_at: now,
        }),
      );
      notices.intervieweeMoved(interviewee.id, interviewee.status, next);
      await work(event, interviewee);
    });
  }

  /**
   * One transaction on the locked event, whose notices go to the outbox in it; the pages watching
   * the event are told once it commits.
   */
  private async withLockedEvent<T>(
    eventId: string,
    work: (event: LockedEvent) => Promise<T>,
  ): Promise<T> {
    const result = await this.events.run(eventId, work, () => {
      throw eventNotFound();
    });
    this.changes.changed(eventId);
    return result;
  }
}

async function closeOpenRecord(
  { store, now, notices }: LockedEvent,
  interviewee: IntervieweeRow,
): Promise<void> {
  const open = await store.openRecordOf(interviewee.id);
  if (!open || (await store.closeOpenRecordOf(interviewee.id, now)) !== 1) {
    throw new Error(`interviewee ${interviewee.id} was INTERVIEWING without an open record`);
  }
  notices.recordEnded(open.id, interviewee.id);
}

function intervieweeNotFound(): NotFoundError {
  return new NotFoundError('You are not the interviewee of this event.', 'intervieweeId');
}

function admittedByAnother(): TransitionRefused {
  return new TransitionRefused('Another interviewer has just admitted the interviewee.');
}
