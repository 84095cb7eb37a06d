/**
 * Runs `count` tasks with at most `concurrency` of them in flight at any moment, the way a
 * client pool would, and returns every outcome in task order. A task that throws (a refused
 * connection, a failed assertion) is reported as rejected; nothing is retried.
 */
export async function runConcurrently<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<Array<PromiseSettledResult<T>>> {
  const outcomes = new Array<PromiseSettledResult<T>>(count);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < count) {
      const index = next++;
      try {
        outcomes[index] = { status: 'fulfilled', value: await task(index) };
      } catch (reason) {
        outcomes[index] = { status: 'rejected', reason };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return outcomes;
}

/** How many values fall under each key, e.g. HTTP statuses: `{ "200": 298, "429": 2 }`. */
export function tally<T>(values: readonly T[], key: (value: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[key(value)] = (counts[key(value)] ?? 0) + 1;
  return counts;
}

/** A volume from the environment (for a heavier local run), or the default. */
export function volume(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}
