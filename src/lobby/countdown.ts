import type { LobbyView } from '../interviews/lifecycle/interview-lifecycle.js';
import { isoInstant, timeOfDayInZone } from './schedule.js';
import { isOpen } from './status-words.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The countdown to an open event's start as the service clock has it when the page is made;
 * public/countdown.js keeps it current in the browser with the same wording. Null once the
 * event has ended or was cancelled.
 *
 * What it says after the start agrees with the status the page shows beside it: "Started at"
 * only once the event is STARTED (someone entered the room), at the instant it did, even when
 * that was before the scheduled start; a SCHEDULED event past its start time is said to be not
 * started yet. The browser switches to that wording at `start_iso`.
 */
export function countdownModel(view: LobbyView) {
  const { status, startAt, endAt, startedAt, timezone } = view.event;
  if (!isOpen(status)) return null;
  const began = status === 'STARTED' ? (startedAt ?? startAt) : null;
  const afterStart =
    began === null
      ? `Not started yet, scheduled for ${timeOfDayInZone(startAt, timezone)}`
      : `Started at ${timeOfDayInZone(began, timezone)}`;
  const switchAt = began ?? startAt;
  return {
    text: view.asOf < switchAt ? startsIn(switchAt - view.asOf) : afterStart,
    start_iso: isoInstant(switchAt),
    end_iso: isoInstant(endAt),
    started_text: afterStart,
  };
}

/** "Starts in 2 hours 5 minutes", to the whole minute below; days and hours from a day on. */
export function startsIn(milliseconds: number): string {
  if (milliseconds < MINUTE) return 'Starts in less than a minute';
  const days = Math.floor(milliseconds / DAY);
  const hours = Math.floor((milliseconds % DAY) / HOUR);
  const minutes = Math.floor((milliseconds % HOUR) / MINUTE);
  const parts = days
    ? [count(days, 'day'), count(hours, 'hour')]
    : [count(hours, 'hour'), count(minutes, 'minute')];
  return `Starts in ${parts.filter(Boolean).join(' ')}`;
}

function count(amount: number, unit: string): string {
  if (amount === 0) return '';
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}
