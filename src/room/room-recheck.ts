import type { Logger } from 'pino';
import type { InterviewLifecycle } from '../interviews/lifecycle/interview-lifecycle.js';
import type { RoomNotice } from './membership-queue.js';
import type { RoomParticipant } from './room-service.js';

/** A connection as the re-check sees it: whose it is, and how to take it out of the room. */
export interface RecheckedConnection {
  participant: RoomParticipant;
  /** Asks it to leave the room (after its own joins and leaves), telling the person why. */
  leave(notice: RoomNotice): void;
}

/**
 * After a change of an event, whoever may no longer be in its room leaves it and is told why:
 * everyone once the event is over, the interviewee once sent back or once their interview
 * ended. One re-check runs at a time per event; the changes that arrive while it runs make one
 * more run, however many they are, so a burst of changes never piles up reads.
 */
export class RoomRecheck {
  /** Events being re-checked; `again` when another change arrived meanwhile. */
  private readonly running = new Map<string, { again: boolean }>();

  constructor(
    private readonly lifecycle: InterviewLifecycle,
    /** This process's connections of the event that are in its room or on their way in. */
    private readonly concerned: (eventId: string) => RecheckedConnection[],
    private readonly logger: Logger,
  ) {}

  soon(eventId: string): void {
    const running = this.running.get(eventId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.running.set(eventId, state);
    void (async () => {
      try {
        do {
          state.again = false;
          await this.recheck(eventId);
        } while (state.again);
      } finally {
        this.running.delete(eventId);
      }
    })();
  }

  private async recheck(eventId: string): Promise<void> {
    // Only the connections there before the read are judged by it: one that joins meanwhile was
    // let in on fresher state, and the change that let it in re-checks again.
    const connections = this.concerned(eventId);
    if (!connections.length) return;
    try {
      const view = await this.lifecycle.view(eventId);
      const open = view.event.status === 'SCHEDULED' || view.event.status === 'STARTED';
      const status = view.interviewee?.status;
      for (const connection of connections) {
        let notice: RoomNotice | null = null;
        if (!open) {
          notice = { type: 'ended', message: 'This interview event is over. Thank you.' };
        } else if (connection.participant.role === 'interviewee' && status !== 'INTERVIEWING') {
          notice =
            status === 'REQUEUED'
              ? { type: 'removed', message: 'An interviewer sent you back to the lobby.' }
              : { type: 'ended', message: 'Your interview has ended. Thank you.' };
        }
        if (notice) connection.leave(notice);
      }
    } catch (error) {
      this.logger.error({ err: error, eventId }, 'room could not be checked after a change');
    }
  }
}
