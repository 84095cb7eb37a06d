import type { OffsetDateTime } from '../../../graphql/api.js';

/** An instant of the webhook log, shown in UTC (nothing here has an offset of its own). */
export function utc(epochMs: number): OffsetDateTime {
  return { epochMs, offsetMinutes: 0 };
}

export function utcOrNull(epochMs: number | null): OffsetDateTime | null {
  return epochMs === null ? null : utc(epochMs);
}
