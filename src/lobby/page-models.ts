import { DECISION_VALUES, type DecisionValue } from '../interviews/vocabulary.js';
import { admissionRefusal } from '../interviews/rules/admissions.js';
import type { LobbyView } from '../interviews/lifecycle/interview-lifecycle.js';
import { describeSchedule, isoInstant, timeOfDay } from './schedule.js';
import {
  CLOSED_EVENT_NOTICES,
  EVENT_STATUS_LABELS,
  INTERVIEWEE_STATUS_FOR_INTERVIEWERS,
  INTERVIEWEE_STATUS_FOR_THEM,
  isOpen,
} from './status-words.js';

/**
 * What each page shows, worked out from the lifecycle's view. Templates only print these values;
 * every decision about wording and about which buttons appear is made here.
 */

const DECISION_LABELS: Record<DecisionValue, string> = {
  YES: 'Yes',
  NO: 'No',
  MAYBE: 'Maybe',
  SKIP: 'Skip',
};

/** The decision buttons, in the vocabulary's order. */
export const DECISION_CHOICES: ReadonlyArray<{ value: DecisionValue; label: string }> =
  DECISION_VALUES.map((value) => ({ value, label: DECISION_LABELS[value] }));

export interface Interviewer {
  id: string;
  email: string;
  name: string | null;
}

/** A decision form as it was submitted, shown again when the lifecycle refused it. */
export interface DecisionDraft {
  recordId: string;
  decision: DecisionValue | null;
  note: string;
}

/** The parts every page of an event shares: title, times and status. */
export function eventSummary(view: LobbyView) {
  const { event } = view;
  return {
    event_title: event.title,
    schedule: describeSchedule(event),
    media: event.mediaType === 'PHONE' ? 'Phone interview' : 'Video interview',
    event_status: EVENT_STATUS_LABELS[event.status],
    closed_notice: CLOSED_EVENT_NOTICES[event.status],
  };
}

export function landingModel(view: LobbyView) {
  const cancelled = view.event.status === 'CANCELLED';
  return {
    ...eventSummary(view),
    interviewee_url: cancelled ? null : view.links.intervieweeLobbyUrl,
    interviewer_url: cancelled ? null : view.links.interviewerLobbyUrl,
  };
}

export function intervieweeModel(view: LobbyView) {
  const interviewee = view.interviewee;
  return {
    ...eventSummary(view),
    interviewee_name: interviewee?.name ?? '',
    interviewee_status: interviewee ? INTERVIEWEE_STATUS_FOR_THEM[interviewee.status] : '',
    can_check_in: isOpen(view.event.status) && interviewee?.status === 'RSVPED',
    device_check: deviceCheckModel(view),
  };
}

/**
 * The camera and microphone check of the interviewee lobby (public/device-check.js), offered
 * while the event is open and the interviewee may still join it: a microphone alone for a phone
 * interview. Null when there is nothing left to join.
 */
function deviceCheckModel(view: LobbyView): { video: boolean } | null {
  const status = view.interviewee?.status;
  const mayStillJoin =
    status === 'RSVPED' ||
    status === 'CHECKED_IN' ||
    status === 'REQUEUED' ||
    status === 'INTERVIEWING';
  if (!isOpen(view.event.status) || !mayStillJoin) return null;
  return { video: view.event.mediaType !== 'PHONE' };
}

export function interviewerModel(
  view: LobbyView,
  me: Interviewer,
  draft?: DecisionDraft,
  savedRecordId?: string,
) {
  const open = isOpen(view.event.status);
  const status = view.interviewee?.status;
  const waiting = open && (status === 'CHECKED_IN' || status === 'REQUEUED');
  const noMoreAdmissions = admissionRefusal(view.records.length);
  return {
    ...eventSummary(view),
    me: { email: me.email, name: me.name ?? '' },
    interviewee: view.interviewee
      ? {
          name: view.interviewee.name,
          status: INTERVIEWEE_STATUS_FOR_INTERVIEWERS[view.interviewee.status],
        }
      : null,
    can_admit: waiting && !noMoreAdmissions,
    admission_refusal: waiting ? noMoreAdmissions : null,
    in_room: open && status === 'INTERVIEWING',
    can_end_event: open,
    records: view.records.map((record, index) =>
      recordModel(view, record, index, me, draft, savedRecordId),
    ),
  };
}

function recordModel(
  view: LobbyView,
  record: LobbyView['records'][number],
  index: number,
  me: Interviewer,
  draft: DecisionDraft | undefined,
  savedRecordId: string | undefined,
) {
  const zone = view.event.timezone;
  const stored = record.outcomes.find((outcome) => outcome.interviewerId === me.id);
  const mine = draft?.recordId === record.id ? draft : stored;
  const prefix = `record-${index + 1}`;
  const heading = `Interview ${index + 1}`;
  const savedLabel = DECISION_CHOICES.find((choice) => choice.value === stored?.decision)?.label;
  return {
    id: record.id,
    heading,
    // Only when the page was reached by saving this record's decision, and it is stored.
    saved_message:
      savedRecordId === record.id && savedLabel
        ? `Your decision on ${heading} is saved: ${savedLabel}.`
        : null,
    heading_id: `${prefix}-heading`,
    started: record.startAt === null ? null : moment(record.startAt, zone),
    ended: record.endAt === null ? null : moment(record.endAt, zone),
    editable: view.event.status !== 'ARCHIVED',
    note_id: `${prefix}-note`,
    note: mine?.note ?? '',
    saved_note: stored?.note ?? '',
    saved_decision: savedLabel ?? null,
    choices: DECISION_CHOICES.map((choice) => ({
      ...choice,
      input_id: `${prefix}-${choice.value.toLowerCase()}`,
      checked: mine?.decision === choice.value,
    })),
  };
}

function moment(at: number, timezone: string) {
  return { iso: isoInstant(at), text: timeOfDay(at, timezone) };
}

/** Interviewers may wait in the room while the event is open; the interviewee once admitted. */
export function mayEnterRoom(view: LobbyView, role: 'interviewer' | 'interviewee'): boolean {
  if (!isOpen(view.event.status)) return false;
  return role === 'interviewer' || view.interviewee?.status === 'INTERVIEWING';
}

/** The interview room: what it is about, and how the browser should join it. */
export function roomModel(view: LobbyView, role: 'interviewer' | 'interviewee') {
  return {
    ...eventSummary(view),
    role,
    audio_only: view.event.mediaType === 'PHONE',
    start_iso: isoInstant(view.event.startAt),
    end_iso: isoInstant(view.event.endAt),
  };
}
