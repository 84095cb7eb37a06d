import type { EpochMs } from '../db/rows.js';
import type { Settlement } from './delivery-store.js';

/** What one attempt came to, as far as what happens next is concerned. */
export interface AttemptAnswer {
  /** Null when no answer came (refused, reset, timed out). */
  statusCode: number | null;
  /** The answer's Retry-After header, when it had one. */
  retryAfter?: string;
}

export interface RetrySettings {
  retryScheduleMs: readonly number[];
  retryAfterMaxMs: number;
}

/** How an attempt ends for its delivery, and for its endpoint. */
export interface Verdict {
  settlement: Settlement;
  /** delivered, retrying or failed: the outcome label of webhook_deliveries_total. */
  outcome: 'delivered' | 'retrying' | 'failed';
  /**
   * 2xx: the endpoint is healthy; 410: it asked to be disabled; else it failed once more.
   * `untouched` when nothing was sent to it.
   */
  endpoint: 'answered' | 'gone' | 'failing' | 'untouched';
}

/** Each pause of the schedule is moved by up to this fraction either way. */
const JITTER = 0.2;

/**
 * DESIGN §8's rules for one attempt. `attemptsBefore` is how many attempts the delivery had
 * since it was (re)queued: the schedule's pause `n` follows attempt `n + 1`, and after the
 * schedule's last pause comes its last attempt, after which the delivery has failed.
 *
 * 429 and 503 count as attempts of the schedule like any other failure, so that a delivery has
 * the same bounded number of attempts whatever the receiver answers. Their Retry-After is the
 * earliest instant of the next attempt (capped at retryAfterMaxMs): a receiver can make the next
 * attempt wait longer than the schedule would, never make it come sooner, so an overloaded
 * receiver cannot use its retries up in a few seconds either.
 */
export function verdictOf(
  answer: AttemptAnswer,
  attemptsBefore: number,
  now: EpochMs,
  settings: RetrySettings,
  random: () => number = Math.random,
): Verdict {
  const status = answer.statusCode;
  if (status !== null && status >= 200 && status < 300) {
    return {
      settlement: { status: 'delivered', at: now },
      outcome: 'delivered',
      endpoint: 'answered',
    };
  }
  if (status === 410) {
    return { settlement: { status: 'failed' }, outcome: 'failed', endpoint: 'gone' };
  }
  const pause = settings.retryScheduleMs[attemptsBefore];
  if (pause === undefined) {
    return { settlement: { status: 'failed' }, outcome: 'failed', endpoint: 'failing' };
  }
  let wait = pause * (1 - JITTER + 2 * JITTER * random());
  if ((status === 429 || status === 503) && answer.retryAfter !== undefined) {
    const asked = retryAfterMs(answer.retryAfter, now);
    if (asked !== undefined) wait = Math.max(wait, Math.min(asked, settings.retryAfterMaxMs));
  }
  return {
    settlement: { status: 'pending', nextAttemptAt: now + Math.round(wait) },
    outcome: 'retrying',
    endpoint: 'failing',
  };
}

/**
 * A Retry-After header (delay-seconds or an HTTP date) as milliseconds from `now`; undefined
 * when it is neither. A date in the past means now.
 */
export function retryAfterMs(header: string, now: EpochMs): number | undefined {
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
