import type { Database } from '../src/db/database.js';
import type { BenchAccounts } from './accounts.js';
import { earliestStart, type EventRange, type SeedClock } from './seed-rows.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const MEASURED_TAG = 1;
const OTHER_TAG = 2;

/** Events `from` to `to` (exclusive) of the measured employer, created by the bench app. */
export function measuredEvents(accounts: BenchAccounts, from: number, to: number): EventRange {
  return {
    employerId: accounts.employers.measured,
    creator: {
      appId: accounts.app.id,
      userId: accounts.owner.id,
      email: accounts.owner.email,
      name: accounts.owner.name,
    },
    tag: MEASURED_TAG,
    from,
    to,
  };
}

/** Another partner's employer's events, in the same tables. */
export function otherEvents(accounts: BenchAccounts, count: number): EventRange {
  const { otherOwner } = accounts;
  return {
    employerId: accounts.employers.other,
    creator: {
      appId: accounts.otherApp.id,
      userId: otherOwner.id,
      email: otherOwner.email,
      name: otherOwner.name,
    },
    tag: OTHER_TAG,
    from: 0,
    to: count,
  };
}

/** The startTime filter of P3: 30 days, 300 days after the earliest start (about 4 % of events). */
export function filteredRange(clock: SeedClock): { from: number; until: number } {
  const from = earliestStart(clock) + 300 * DAY_MS;
  return { from, until: from + 30 * DAY_MS };
}

/** An event of the measured employer from the middle of the small stage (P2 reads it by id). */
export async function middleEventId(
  db: Database,
  accounts: BenchAccounts,
  smallEvents: number,
): Promise<string> {
  const row = (await db('interview_events')
    .where('employer_id', accounts.employers.measured)
    .orderBy('id')
    .offset(Math.floor(smallEvents / 2))
    .first('id')) as { id: string } | undefined;
  if (!row) throw new Error('the measured employer has no events');
  return row.id;
}
