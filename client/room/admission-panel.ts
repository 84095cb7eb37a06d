import type { PageMessage, RoomState } from '../../src/room/protocol/messages.js';
import type { RoomPage } from './page.js';

/**
 * What the room says about the event as the service tells it (on every connection and after
 * every change): who is in the room and, for interviewers, the interviewee waiting in the lobby
 * ("Robin is waiting", Admit) or in the interview (Send back to lobby). The buttons ask the
 * service over the live connection; the state that follows shows the outcome.
 */
export class AdmissionPanel {
  constructor(
    private readonly page: RoomPage,
    private readonly send: (message: PageMessage) => void,
  ) {
    this.page.byId('admit-button')?.addEventListener('click', () => this.ask({ type: 'admit' }));
    this.page
      .byId('send-back-button')
      ?.addEventListener('click', () => this.ask({ type: 'send-back' }));
  }

  render(state: RoomState): void {
    const names = state.present.map((person) => `${person.name} (${person.role})`);
    this.page.say(
      'room-present',
      names.length ? `In the room now: ${names.join(', ')}.` : 'Nobody is in the room yet.',
    );
    if (!this.page.isInterviewer) return;
    const { interviewee, admission } = state;
    const waiting = admission.canAdmit || admission.refusal !== null;
    const text = !interviewee
      ? null
      : waiting
        ? `${interviewee.name} is waiting in the lobby.`
        : admission.canSendBack
          ? `${interviewee.name} is in the interview.`
          : null;
    this.page.show('admission', text !== null);
    this.page.say('admission-text', text);
    this.page.say('admission-message', admission.refusal);
    this.button('admit-button', admission.canAdmit);
    this.button('send-back-button', admission.canSendBack);
  }

  /** The service refused the step: the interviewer reads why; the buttons are as they were. */
  refused(message: string): void {
    this.page.say('admission-message', message);
    for (const id of ['admit-button', 'send-back-button']) {
      const button = this.page.byId<HTMLButtonElement>(id);
      if (button) button.disabled = false;
    }
  }

  private ask(message: PageMessage): void {
    this.page.say('admission-message', '');
    for (const id of ['admit-button', 'send-back-button']) {
      const button = this.page.byId<HTMLButtonElement>(id);
      if (button) button.disabled = true;
    }
    this.send(message);
  }

  private button(id: string, visible: boolean): void {
    const button = this.page.byId<HTMLButtonElement>(id);
    if (!button) return;
    button.hidden = !visible;
    button.disabled = false;
  }
}
