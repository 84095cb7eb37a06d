import type { Accounts } from '../accounts/compose.js';
import type { EpochMs } from '../db/rows.js';
import type { SharedDependencies } from '../shared-dependencies.js';
import { EventChanges } from './event-changes.js';
import { EventCursors } from './event-cursor.js';
import { EventFinder } from './event-finder.js';
import { EventSearchStore } from './event-search-store.js';
import { EventWriteStore } from './event-write-store.js';
import { EventWriter } from './event-writer.js';
import type { InterviewLifecycle } from './lifecycle/interview-lifecycle.js';
import { composeLifecycle } from './lifecycle/compose.js';
import type { RoomLifecycle } from './lifecycle/room-lifecycle.js';
import { archiveDelayMs, settleAt, type Settle } from './lifecycle/settle.js';
import { startSweeper, type RunningSweeper, type SweepCounts } from './lifecycle/sweeper.js';
import { createInterviewLoaders, type InterviewLoaders } from './loaders.js';
import { InterviewReadStore } from './read-store.js';
import type { Recordings } from '../recordings/compose.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';

/** The Interview API's rules, the lifecycle behind the lobby pages, and the sweeper. */
export interface Interviews {
  /** The API's writes: create, update, cancel, add interviewers. */
  writer: EventWriter;
  /** findVirtualInterviewEvents. */
  finder: EventFinder;
  /** What the lobby pages show and the transitions they ask for. */
  lifecycle: InterviewLifecycle;
  /** The room's transitions: src/room calls them and keeps only its connections. */
  rooms: RoomLifecycle;
  /** Batching, caching loaders for one GraphQL request (fresh for each). */
  createLoaders(): InterviewLoaders;
  /** Settles statuses by the clock at this instant, for everything one request reads. */
  settleNow(): Settle;
  /** Persists the time-driven transitions due now (the CLI's `interviews sweep`). */
  sweepNow(): Promise<SweepCounts & { sweptAt: EpochMs }>;
  /** Told after every committed change of an event that its pages show (src/room listens). */
  changes: EventChanges;
  /** Sweeps every SWEEP_INTERVAL_MS in the background; null when that setting is 0. */
  startSweeping(): RunningSweeper | null;
}

export function composeInterviews(
  shared: SharedDependencies,
  deps: {
    accounts: Accounts;
    recordings: Pick<Recordings, 'links' | 'retention'>;
    /** Where every committed change of an interview is told, in its transaction (DESIGN §8). */
    outbox: WebhookOutbox;
  },
): Interviews {
  const { db, clock, config } = shared;
  const lobbyTokenBox = shared.boxes.lobbyTokens;
  const archiveAfterMs = archiveDelayMs(config.archiveAfterDays);
  const reads = new InterviewReadStore(db);
  const changes = new EventChanges();
  const lifecycle = composeLifecycle(shared, {
    outbox: deps.outbox,
    changes,
    retention: deps.recordings.retention,
  });
  const sweeper = lifecycle.sweeper;
  return {
    changes,
    writer: new EventWriter(
      new EventWriteStore(db),
      deps.accounts.stores.accounts,
      lobbyTokenBox,
      clock,
      archiveAfterMs,
      changes,
      deps.outbox,
    ),
    finder: new EventFinder(new EventSearchStore(db), new EventCursors(shared.serverSecret)),
    lifecycle: lifecycle.service,
    rooms: lifecycle.room,
    createLoaders: () =>
      createInterviewLoaders(reads, lobbyTokenBox, config.publicUrl, (recordIds) =>
        deps.recordings.links.urlsOfRecords(recordIds),
      ),
    settleNow: () => settleAt(clock.now(), archiveAfterMs),
    async sweepNow() {
      const sweptAt = clock.now();
      return { sweptAt, ...(await sweeper.sweep(sweptAt)) };
    },
    startSweeping: () =>
      config.sweepIntervalMs > 0
        ? startSweeper(sweeper, clock, config.sweepIntervalMs, shared.logger)
        : null,
  };
}
