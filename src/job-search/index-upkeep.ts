import type { Logger } from 'pino';
import {
  NEVER_STOPPED,
  runPeriodically,
  type RunningTask,
  type StopSignal,
} from '../periodic-task.js';
import type { SearchStore } from './search-store.js';

/** Pages each step writes at most (FTS5's are 4 KB): a few milliseconds of SQLite's one writer. */
const STEP_PAGES = 64;
/** Steps per pass at most; what remains waits for the next pass. */
const MOST_STEPS_PER_PASS = 400;
/** A pass this often in every process, the first one interval after start. */
const PASS_INTERVAL_MS = 5_000;

export type RunningUpkeep = RunningTask;

/**
 * The search index's upkeep (src/db/dialects/text-search.ts, TextIndexUpkeep: SQLite merges the
 * FTS5 segments that each write adds, PostgreSQL empties the GIN pending list that every search
 * reads): small steps, each its own short transaction, so that writers wait for one step at
 * most, never for a whole merge. Every process runs passes on a timer; the seed compacts the
 * index when it has loaded.
 */
export class IndexUpkeep {
  constructor(private readonly store: SearchStore) {}

  /**
   * Steps until one finds nothing to do, at most MOST_STEPS_PER_PASS, or until `signal` says
   * stop; how many did work.
   */
  async runPass(signal: StopSignal = NEVER_STOPPED): Promise<number> {
    let worked = 0;
    while (worked < MOST_STEPS_PER_PASS && !signal.stopped) {
      if (!(await this.store.upkeepStep(STEP_PAGES))) break;
      worked += 1;
    }
    return worked;
  }

  /**
   * After a bulk load (the seed): the whole index compacted into its fastest shape, step by
   * step until nothing is left. It rewrites the index, so the timer's passes never do it.
   */
  async compact(): Promise<void> {
    while (await this.store.upkeepStep(STEP_PAGES, 'compact'));
    await this.store.afterBulkLoad();
  }

  /**
   * A pass every PASS_INTERVAL_MS; passes never overlap, a failed one is logged, and one in
   * progress at stop ends after its current step.
   */
  start(logger: Logger): RunningUpkeep {
    return runPeriodically(
      PASS_INTERVAL_MS,
      async (signal) => {
        const steps = await this.runPass(signal);
        if (steps) logger.debug({ steps }, 'search index upkeep');
      },
      (error) => logger.error({ err: error }, 'search index upkeep failed'),
    );
  }
}
