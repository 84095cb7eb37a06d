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
 */
export function countdownModel(view: LobbyView) {
  const { status, startAt, endAt, timezone } = view.event;
  if (!isOpen(status)) return null;
  const started = `Started at ${timeOfDayInZone(startAt, timezone)}`;
  return {
    text: view.asOf < startAt ? startsIn(startAt - view.asOf) : started,
    start_iso: isoInstant(startAt),
    end_iso: isoInstant(endAt),
    started_text: started,
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
