import type { EpochMs, EventRow } from '../db/rows.js';
import type { Transaction } from '../db/transactions.js';
import type { InterviewEventChange, InterviewEventType } from '../webhooks/event-types.js';
import type { WebhookNotice } from '../webhooks/notice.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import type { DecisionValue, EventStatus, IntervieweeStatus } from './vocabulary.js';

/**
 * What partners hear of an interview's changes (DESIGN §8, docs/webhooks.md "Event types"): the
 * one place that maps a transition to a webhook type and decides each notice's thin `data`.
 * Every notice is about one event (its subject), goes to the app that created it, and carries
 * the event's status after the change; never a lobby token, an email, a name or a note.
 */

/** The event columns a notice needs; every writer has read or written them in its transaction. */
export type NoticeEvent = Pick<EventRow, 'id' | 'employer_id' | 'created_by_app_id'>;

/** An event moving into one of these statuses is news; SCHEDULED and ARCHIVED are not. */
const EVENT_MOVES: Partial<Record<EventStatus, InterviewEventType>> = {
  STARTED: 'interview.event.started.v1',
  ENDED: 'interview.event.ended.v1',
  CANCELLED: 'interview.event.cancelled.v1',
};

/**
 * The interviewee's moves that are news. RSVPED comes with the event's creation or its
 * `interviewee_added` update; CANCELLED with the event's cancellation.
 */
const INTERVIEWEE_MOVES: Partial<Record<IntervieweeStatus, InterviewEventType>> = {
  CHECKED_IN: 'interview.interviewee.checked_in.v1',
  INTERVIEWING: 'interview.interviewee.admitted.v1',
  REQUEUED: 'interview.interviewee.requeued.v1',
  INTERVIEWED: 'interview.interviewee.interviewed.v1',
  NOT_INTERVIEWED: 'interview.interviewee.not_interviewed.v1',
};

/**
 * The notices of one event's change in one transaction, at its instant `now`. Each carries the
 * event's status after the whole change: `status` as given, or where `eventMoved` took it.
 */
export class InterviewNotices {
  private readonly pending: Array<{ type: InterviewEventType; data: Record<string, unknown> }> = [];

  constructor(
    private readonly event: NoticeEvent,
    private status: EventStatus,
    readonly now: EpochMs,
  ) {}

  created(): this {
    return this.add('interview.event.created.v1', {});
  }

  updated(change: InterviewEventChange): this {
    return this.add('interview.event.updated.v1', { change });
  }

  /** The event moved into `to` (callers skip transitions that change nothing). */
  eventMoved(to: EventStatus): this {
    this.status = to;
    const type = EVENT_MOVES[to];
    return type ? this.add(type, {}) : this;
  }

  intervieweeMoved(intervieweeId: string, from: IntervieweeStatus, to: IntervieweeStatus): this {
    const type = from === to ? undefined : INTERVIEWEE_MOVES[to];
    return type ? this.add(type, { intervieweeId, intervieweeStatus: to }) : this;
  }

  recordStarted(recordId: string, intervieweeId: string): this {
    return this.add('interview.record.started.v1', { recordId, intervieweeId });
  }

  recordEnded(recordId: string, intervieweeId: string): this {
    return this.add('interview.record.ended.v1', { recordId, intervieweeId });
  }

  decisionRecorded(recordId: string, interviewerId: string, decision: DecisionValue): this {
    return this.add('interview.decision.recorded.v1', { recordId, interviewerId, decision });
  }

  recordingAvailable(recordId: string): this {
    return this.add('interview.recording.available.v1', { recordId });
  }

  /** Hands every notice to the outbox, in order, in the change's own transaction. */
  async recordIn(outbox: WebhookOutbox, tx: Transaction): Promise<void> {
    for (const notice of this.notices()) await outbox.record(notice, tx);
  }

  /** The notices so far, as the outbox takes them. */
  notices(): WebhookNotice[] {
    const { id, employer_id: employerId, created_by_app_id: appId } = this.event;
    return this.pending.map(({ type, data }) => ({
      appId,
      employerId,
      type,
      subject: id,
      time: this.now,
      data: { eventId: id, employerId, status: this.status, ...data },
    }));
  }

  private add(type: InterviewEventType, data: Record<string, unknown>): this {
    this.pending.push({ type, data });
    return this;
  }
}
