import type { LobbyView } from '../interviews/lifecycle/interview-lifecycle.js';
import { admissionRefusal } from '../interviews/rules/admissions.js';
import type { RoomConnectionRow } from '../db/rows.js';
import type { RoomNotice, RoomState } from './protocol/messages.js';
import type { RoomParticipant } from './room-service.js';

/** The event as the room's pages show it: who is in the room, who waits, what may be done. */
export function roomState(
  view: LobbyView,
  present: ReadonlyArray<Pick<RoomConnectionRow, 'role' | 'participant_id'>>,
): RoomState {
  const open = isOpen(view);
  const interviewee = view.interviewee;
  const waiting =
    open && (interviewee?.status === 'CHECKED_IN' || interviewee?.status === 'REQUEUED');
  const refusal = waiting ? admissionRefusal(view.records.length) : null;
  const nameOf = (row: Pick<RoomConnectionRow, 'role' | 'participant_id'>) =>
    row.role === 'interviewee'
      ? (interviewee?.name ?? 'Interviewee')
      : (view.interviewers.find((interviewer) => interviewer.id === row.participant_id)?.name ??
        'Interviewer');
  return {
    type: 'state',
    eventStatus: view.event.status,
    interviewee: interviewee ? { name: interviewee.name, status: interviewee.status } : null,
    present: present.map((row) => ({ role: row.role, name: nameOf(row) })),
    admission: {
      canAdmit: waiting && !refusal,
      canSendBack: open && interviewee?.status === 'INTERVIEWING',
      refusal,
    },
  };
}

/**
 * Why a participant may no longer be in the room after a change, or null: everyone once the
 * event is over, the interviewee once sent back or once their interview ended.
 */
export function departureNotice(view: LobbyView, participant: RoomParticipant): RoomNotice | null {
  if (!isOpen(view)) return { type: 'ended', message: 'This interview event is over. Thank you.' };
  if (participant.role !== 'interviewee') return null;
  const status = view.interviewee?.status;
  if (status === 'INTERVIEWING') return null;
  return status === 'REQUEUED'
    ? { type: 'removed', message: 'An interviewer sent you back to the lobby.' }
    : { type: 'ended', message: 'Your interview has ended. Thank you.' };
}

function isOpen(view: LobbyView): boolean {
  return view.event.status === 'SCHEDULED' || view.event.status === 'STARTED';
}
