import type { Logger } from 'pino';
import { DomainError, TemporarilyUnavailable } from '../../errors.js';
import type { InterviewLifecycle } from '../../interviews/lifecycle/interview-lifecycle.js';
import type { LiveConnection } from './live-connection.js';

const INTERVIEWERS_ONLY = 'Only an interviewer can admit the interviewee or send them back.';
const BUSY = 'The service is busy. Try again in a moment.';
const OUR_FAULT = 'Something went wrong on our side. Reload the page and try again.';

/**
 * Admit and Send back pressed in the room: the same transitions of the lifecycle as the
 * interviewer lobby's buttons, as the interviewer the connection was authorised for (its
 * lobby's capability link and identity cookie, checked when it opened). The room changes no
 * interview state itself; the pages learn the outcome from the change that follows, and the
 * interviewer alone hears why a step was refused.
 */
export class RoomAdmissions {
  constructor(
    private readonly lifecycle: InterviewLifecycle,
    private readonly logger: Logger,
  ) {}

  async ask(connection: LiveConnection, step: 'admit' | 'send-back'): Promise<void> {
    const { eventId, participant } = connection;
    if (participant.role !== 'interviewer') {
      return connection.send({ type: 'admission-refused', message: INTERVIEWERS_ONLY });
    }
    try {
      if (step === 'admit') await this.lifecycle.admit(eventId, participant.id);
      else await this.lifecycle.sendBack(eventId, participant.id);
    } catch (error) {
      // Refused by the state machines (TransitionRefused), or the person is not invited any more.
      if (error instanceof DomainError) {
        return connection.send({ type: 'admission-refused', message: error.message });
      }
      if (error instanceof TemporarilyUnavailable) {
        return connection.send({ type: 'admission-refused', message: BUSY });
      }
      this.logger.error({ err: error, step }, 'a step asked from the room failed');
      connection.send({ type: 'admission-refused', message: OUR_FAULT });
    }
  }
}
