import fc from 'fast-check';

/**
 * How many cases each fuzz target runs: FUZZ_RUNS, or a few hundred so that `npm test` stays
 * fast (`npm run fuzz` sets 10,000). A failure prints fast-check's seed and path; set FUZZ_SEED
 * and FUZZ_PATH to replay exactly that case.
 */
export function fuzzRuns(): number {
  const runs = Number(process.env.FUZZ_RUNS ?? 200);
  if (!Number.isSafeInteger(runs) || runs < 1)
    throw new Error('FUZZ_RUNS must be a positive integer');
  return runs;
}

function replay(): Pick<fc.Parameters<unknown>, 'seed' | 'path'> {
  const seed = process.env.FUZZ_SEED;
  const path = process.env.FUZZ_PATH;
  return {
    ...(seed !== undefined && { seed: Number(seed) }),
    ...(path !== undefined && { path }),
  };
}

/** What one target saw: cases run and statuses answered. */
export class FuzzTally {
  private readonly targets = new Map<string, { cases: number; statuses: Map<number, number> }>();

  constructor(private readonly suite: string) {}

  record(target: string, status: number): void {
    const entry = this.targets.get(target) ?? { cases: 0, statuses: new Map() };
    entry.cases += 1;
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
    this.targets.set(target, entry);
  }

  /** One line per target: cases, 5xx answers and the spread of statuses. */
  report(): string {
    return [...this.targets]
      .map(([target, { cases, statuses }]) => {
        const serverErrors = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
        const spread = [...statuses]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status}×${count}`)
          .join(' ');
        return `      fuzz ${this.suite} · ${target}: ${cases} cases, 5xx ${serverErrors} (${spread})`;
      })
      .join('\n');
  }
}

/** An HTTP answer as the properties look at it: JSON bodies parsed, others as text. */
export interface Observed {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * Runs FUZZ_RUNS generated cases: `send` makes the request of one case, the tally counts its
 * status (so a 5xx is counted before the property fails on it), then `verify` checks the answer.
 */
export async function fuzz<T>(
  tally: FuzzTally,
  target: string,
  arbitrary: fc.Arbitrary<T>,
  send: (value: T) => Promise<Observed>,
  verify: (observed: Observed, value: T) => void,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      const observed = await send(value);
      tally.record(target, observed.status);
      verify(observed, value);
    }),
    { numRuns: fuzzRuns(), ...replay(), reporter: reportShortly<[T]> },
  );
}

/**
 * fast-check's report (seed, path, counterexample, error) with long runs of one character
 * written as a count, so a 100 kB value does not flood the terminal.
 */
function reportShortly<Ts>(details: fc.RunDetails<Ts>): void {
  const report = fc.defaultReportMessage(details);
  if (report === undefined) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : '';
  const message = `${report}\n\nGot error: ${cause}`;
  throw new Error(
    message.replace(/(.)\1{40,}/gsu, (run, char: string) => `${char}…(${run.length}×)`),
  );
}

/** Sends one request exactly as given (no redirects followed) and reads the answer. */
export async function sendRaw(
  url: string,
  init: { method: string; headers?: Record<string, string | undefined>; body?: string },
): Promise<Observed> {
  const headers = Object.fromEntries(
    Object.entries(init.headers ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const response = await fetch(url, { ...init, headers, redirect: 'manual' });
  const text = await response.text();
  const json = /json/.test(response.headers.get('content-type') ?? '');
  return {
    status: response.status,
    headers: response.headers,
    body: json && text ? JSON.parse(text) : text,
  };
}
