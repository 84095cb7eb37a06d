import { randomInt } from 'node:crypto';
import { InvalidArgumentError, type Command } from 'commander';
import { MAX_POSTINGS_PER_REQUEST } from '../job-sync/posting-writer.js';
import { jobSyncSink } from './job-sync-seed.js';
import type { CliIo } from './output.js';
import { SEED_APP_NAME, SEED_EMPLOYER_NAME } from './seed-owner.js';
import type { CliServices } from './services.js';

type Print = (data: object, lines: () => string[]) => void;

/** The most postings one `jobs seed` loads. */
const MOST_SEEDED = 10_000_000;

/**
 * `jobs seed`: realistic postings for search benchmarks and demos (titles and companies from
 * word lists, places from the GeoNames cities by population), created through Job Sync as a
 * partner's requests would create them: real postings of an app and employer, which node(id),
 * the console's Job postings tab and (once ACTIVE) jobSearch show.
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
    .description(
      'create realistic postings through Job Sync (for search benchmarks and demos), owned by an app and employer',
    )
    .requiredOption(
      '--count <n>',
      `how many postings (1 to ${MOST_SEEDED})`,
      wholeNumber(1, MOST_SEEDED),
    )
    .option(
      '--app <client_id or id>',
      `the app that posts them (default: "${SEED_APP_NAME}", reused or created)`,
    )
    .option(
      '--employer <id>',
      `the employer (employers.id) they are posted for (default: "${SEED_EMPLOYER_NAME}" of the app's owner, reused or created)`,
    )
    .option(
      '--batch <n>',
      `postings generated at a time, written ${MAX_POSTINGS_PER_REQUEST} per transaction`,
      wholeNumber(1, 10_000),
      1000,
    )
    .option(
      '--days <n>',
      'publication dates spread over this many past days',
      wholeNumber(1, 3650),
      30,
    )
    .option(
      '--seed <n>',
      'the same seed makes the same postings (again: they update the first ones); random by default',
      wholeNumber(0, 2 ** 31),
    )
    .action(
      async (options: {
        count: number;
        employer?: string;
        app?: string;
        batch: number;
        days: number;
        seed?: number;
      }) => {
        const seed = options.seed ?? randomInt(2 ** 31);
        const resolved = await services();
        const owner = await resolved.jobs.seedOwner({
          app: options.app,
          employer: options.employer,
        });
        const started = performance.now();
        let reported = 0;
        await resolved.jobSearch.seed(
          {
            count: options.count,
            batchSize: options.batch,
            appId: owner.app.id,
            employerId: owner.employer.id,
            spreadDays: options.days,
            now: Date.now(),
            seed,
          },
          jobSyncSink(resolved.jobs.postings, {
            appId: owner.app.id,
            employerId: owner.employer.id,
          }),
          (done) => {
            // About every tenth of the way.
            if (done === options.count || done - reported >= options.count / 10) {
              reported = done;
              io.stderr(`seeded ${done} of ${options.count} postings\n`);
            }
          },
        );
        const seconds = (performance.now() - started) / 1000;
        const perSecond = Math.round(options.count / seconds);
        const indexed = await resolved.jobSearch.indexedCount();
        const searchableAfterSeconds = Math.ceil(resolved.jobs.indexingDelayMs / 1000);
        print(
          {
            seeded: options.count,
            seed,
            app: owner.app,
            employer: owner.employer,
            seconds: Math.round(seconds * 10) / 10,
            postings_per_second: perSecond,
            indexed,
            searchable_after_seconds: searchableAfterSeconds,
          },
          () => [
            `Seeded ${options.count} postings through Job Sync in ${seconds.toFixed(1)} s ` +
              `(${perSecond} a second, seed ${seed}); the search index holds ${indexed}.`,
            `App:       ${owner.app.client_id}  ${owner.app.name}`,
            `Employer:  ${owner.employer.id}  ${owner.employer.name}`,
            searchableAfterSeconds > 0
              ? `They are PENDING, and jobSearch finds them, ${searchableAfterSeconds} s after each was written (JOB_SYNC_INDEXING_DELAY_MS).`
              : 'They are ACTIVE and searchable now (JOB_SYNC_INDEXING_DELAY_MS is 0).',
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
