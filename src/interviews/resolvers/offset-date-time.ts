import type { OffsetDateTime } from '../../graphql/api.js';

/** An instant shown in the UTC offset the caller chose for the event. */
export function atOffset(epochMs: number, offsetMinutes: number): OffsetDateTime {
  return { epochMs, offsetMinutes };
}
