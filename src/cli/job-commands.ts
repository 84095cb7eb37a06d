import { randomInt } from 'node:crypto';
import { InvalidArgumentError, type Command } from 'commander';
import type { CliIo } from './output.js';
import type { CliServices } from './services.js';

type Print = (data: object, lines: () => string[]) => void;

/** The most postings one `jobs seed` loads. */
const MOST_SEEDED = 10_000_000;

/**
 * `jobs seed`: realistic postings for search benchmarks and demos (titles and companies from
 * word lists, places from the GeoNames cities by population), loaded in batches.
 */
export function addJobCommands(
  program: Command,
  services: () => Promise<CliServices>,
  print: Print,
  io: CliIo,
): void {
  const jobs = program.command('jobs').description('job postings');
  jobs
    .command('seed')
    .description('load realistic postings (for search benchmarks and demos)')
    .requiredOption(
      '--count <n>',
      `how many postings (1 to ${MOST_SEEDED})`,
      wholeNumber(1, MOST_SEEDED),
    )
    .option(
      '--employer <id>',
      'the employer (employers.id) the postings belong to',
      'seed-employer',
    )
    .option('--app <client_id>', 'the app that posts them (default: none, "seed-app")')
    .option('--batch <n>', 'postings written per transaction', wholeNumber(1, 10_000), 1000)
    .option(
      '--days <n>',
      'publication dates spread over this many past days',
      wholeNumber(1, 3650),
      30,
    )
    .option(
      '--seed <n>',
      'the same seed makes the same postings (again: they replace the first ones); random by default',
      wholeNumber(0, 2 ** 31),
    )
    .action(
      async (options: {
        count: number;
        employer: string;
        app?: string;
        batch: number;
        days: number;
        seed?: number;
      }) => {
        const seed = options.seed ?? randomInt(2 ** 31);
        const resolved = await services();
        const appId = options.app ? await resolved.webhooks.appIdOf(options.app) : 'seed-app';
        const started = performance.now();
        let reported = 0;
        await resolved.jobSearch.seed(
          {
            count: options.count,
            batchSize: options.batch,
            appId,
            employerId: options.employer,
            spreadDays: options.days,
            now: Date.now(),
            seed,
          },
          (done) => {
            // About every tenth of the way.
            if (done === options.count || done - reported >= options.count / 10) {
              reported = done;
              io.stderr(`seeded ${done} of ${options.count} postings\n`);
            }
          },
        );
        const seconds = (performance.now() - started) / 1000;
        const indexed = await resolved.jobSearch.indexedCount();
        print(
          {
            seeded: options.count,
            seed,
            seconds: Math.round(seconds * 10) / 10,
            postings_per_second: Math.round(options.count / seconds),
            indexed,
          },
          () => [
            `Seeded ${options.count} postings in ${seconds.toFixed(1)} s ` +
              `(${Math.round(options.count / seconds)} a second, seed ${seed}); the index holds ${indexed}`,
          ],
        );
      },
    );
}

function wholeNumber(min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < min || number > max) {
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
    }
    return number;
  };
}
