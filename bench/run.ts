/**
 * `npm run bench`: the service in production mode as its own process (its default configuration
 * and WORKERS=1) on a freshly seeded database, side by side with peers, each its own process,
 * loaded by a separate driver process in interleaved rounds. Prints one table to stdout, progress
 * to stderr, and writes bench/results.json. `npm run bench -- --help` lists the options.
 */
import { fileURLToPath } from 'node:url';
import { Benchmark } from './benchmark.js';
import { ensureBuilt } from './build.js';
import { Cleanup } from './cleanup.js';
import { parseOptions } from './options.js';
import { formatDuration } from './progress.js';
import { formatReport, writeResults } from './report.js';

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));

const started = performance.now();
/** Progress on stderr, each line with the time since the start. */
function log(line: string): void {
  process.stderr.write(`[${formatDuration((performance.now() - started) / 1000)}] ${line}\n`);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  ensureBuilt(REPOSITORY);
  const cleanup = new Cleanup();
  process.once('SIGINT', () => void cleanup.run().finally(() => process.exit(130)));
  try {
    const results = await new Benchmark(REPOSITORY, options, cleanup, log).run();
    writeResults(options.resultsPath, results);
    console.log(formatReport(results));
    log(`results written to ${options.resultsPath}`);
    // A scenario that could not be measured is a failure of the run, not a figure.
    if (results.problems.length) process.exitCode = 1;
  } finally {
    await cleanup.run();
  }
}

main().catch((error: unknown) => {
  console.error(describeError(error));
  process.exitCode = 1;
});

/** The message and its causes (fetch reports only "fetch failed"; the cause says why). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause === undefined ? '' : `\n  caused by: ${describeError(error.cause)}`;
  return `${error.stack ?? error.message}${cause}`;
}
