import { isPossibleIdentifier } from '../../security/text-safety.js';

/** Longer than any event id the service issues (UUIDs, 36 characters). */
const MAX_EVENT_ID_LENGTH = 64;

/**
 * Whether an id sent by a caller could name an event at all. One that cannot is unknown without
 * a look-up: reads answer null and changes NOT_FOUND, and no NUL reaches the database.
 */
export function isPossibleEventId(id: string): boolean {
  return isPossibleIdentifier(id, MAX_EVENT_ID_LENGTH);
}

/** An id as an error message may quote it: at most 80 characters, control characters escaped. */
export function quotedEventId(id: string): string {
  return JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id);
}
