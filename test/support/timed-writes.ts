import { performance } from 'node:perf_hooks';
import type { Answer } from './jobs-apis-client.js';

/**
 * One write as its client saw it: when it was sent, when its answer came (Infinity: no answer,
 * it may or may not have committed), and whether the answer said it happened.
 */
export interface TimedWrite {
  start: number;
  end: number;
  acknowledged: boolean;
}

/** Sends a write and times it; `answer` is what the service said, `write` how it went. */
export async function timed(
  send: () => Promise<Answer>,
): Promise<{ answer: Answer; write: TimedWrite }> {
  const start = performance.now();
  const answer = await send();
  const answered = answer.kind === 'data' || answer.kind === 'fault';
  return {
    answer,
    write: {
      start,
      end: answered ? performance.now() : Infinity,
      acknowledged: answer.kind === 'data',
    },
  };
}

/**
 * True when `later` was sent after `earlier` was acknowledged: the service committed `earlier`
 * before it began `later`, so `later` is applied after it.
 */
export function cameAfter(later: TimedWrite, earlier: TimedWrite): boolean {
  return later.start > earlier.end;
}
