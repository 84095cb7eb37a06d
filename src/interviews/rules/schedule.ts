import type { OffsetDateTime } from '../../graphql/api.js';
import { ValidationError } from '../../errors.js';

/** Spec §8: an event lasts at most 24 hours. */
export const MAX_EVENT_DURATION_MS = 24 * 60 * 60 * 1000;

/** End strictly after start, and no more than 24 hours later. */
export function checkSchedule(
  startTime: OffsetDateTime,
  endTime: OffsetDateTime,
  path = 'input',
): void {
  if (endTime.epochMs <= startTime.epochMs) {
    throw new ValidationError(`${path}.endTime must be after ${path}.startTime`, 'endTime');
  }
  if (endTime.epochMs - startTime.epochMs > MAX_EVENT_DURATION_MS) {
    throw new ValidationError(
      `${path}.endTime must be at most 24 hours after ${path}.startTime`,
      'endTime',
    );
  }
}
