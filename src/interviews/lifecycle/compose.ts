import type { SharedDependencies } from '../../shared-dependencies.js';
import { NO_WEBHOOKS, type WebhookOutbox } from '../../webhooks/outbox.js';
import { EventChanges } from '../event-changes.js';
import { InterviewLifecycleService } from './lifecycle-service.js';
import { LifecycleStore } from './lifecycle-store.js';
import { LockedEvents } from './locked-events.js';
import { RecordingLifecycle } from './recording-lifecycle.js';
import { RoomLifecycle } from './room-lifecycle.js';
import { archiveDelayMs } from './settle.js';
import { InterviewSweeper, type RecordingRetentionStep } from './sweeper.js';

/**
 * The one owner of the interview's state: every transition (the lobby's, the room's, the
 * recordings', the sweeper's) goes through one of these, over the one LifecycleStore, which
 * nothing outside this folder builds or imports.
 */
export interface Lifecycle {
  /** The lobby pages' transitions and views. */
  service: InterviewLifecycleService;
  /** Entering and leaving the room, and ending interviews whose room stayed empty. */
  room: RoomLifecycle;
  /** Recordings starting and stopping. */
  recordings: RecordingLifecycle;
  /** The time-driven transitions. */
  sweeper: InterviewSweeper;
}

export function composeLifecycle(
  shared: SharedDependencies,
  deps: {
    /** Where every committed change is told, in its transaction (DESIGN §8); none by default. */
    outbox?: WebhookOutbox;
    /** Told after each committed lobby transition. */
    changes?: EventChanges;
    /** What the sweep does after archiving (deleting expired recordings). */
    retention?: RecordingRetentionStep;
  } = {},
): Lifecycle {
  const { db, clock, config } = shared;
  const outbox = deps.outbox ?? NO_WEBHOOKS;
  const archiveAfterMs = archiveDelayMs(config.archiveAfterDays);
  const store = new LifecycleStore(db);
  const events = new LockedEvents(store, clock, archiveAfterMs, outbox);
  return {
    service: new InterviewLifecycleService(
      store,
      shared.boxes.lobbyTokens,
      config.publicUrl,
      clock,
      archiveAfterMs,
      deps.changes ?? new EventChanges(),
      outbox,
    ),
    room: new RoomLifecycle(store, events),
    recordings: new RecordingLifecycle(store, events),
    sweeper: new InterviewSweeper(store, archiveAfterMs, deps.retention, outbox),
  };
}
