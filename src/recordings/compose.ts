import type { Router } from 'express';
import { composeLifecycle } from '../interviews/lifecycle/compose.js';
import { LobbyPages } from '../lobby/lobby-pages.js';
import type { SharedDependencies } from '../shared-dependencies.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import { RecordingChunkStore } from './recording-chunk-store.js';
import { RecordingFiles } from './recording-files.js';
import { RecordingFinalisation } from './recording-finalisation.js';
import { RecordingFinalisationStore } from './recording-finalisation-store.js';
import { RecordingLinks } from './recording-links.js';
import { RecordingRetention } from './recording-retention.js';
import { RecordingService, type RecordingChangeHook } from './recording-service.js';
import { RecordingStore } from './recording-store.js';
import { recordingStreamRouter } from './stream-routes.js';

/** Recordings of interviews: uploads from the interviewer lobby, streaming, URLs, retention. */
export interface Recordings {
  /** Start, chunks and stop, for the interviewer lobby's upload routes. */
  service: RecordingService;
  /** GET and HEAD /recordings/:token on PUBLIC_URL. */
  streamRouter(): Router;
  /** VirtualInterviewRecord.recordingUrl, batched. */
  links: RecordingLinks;
  /**
   * The sweeper's step: finalises recordings a dead process left unfinalised, then deletes
   * recordings RECORDINGS_KEEP_DAYS_AFTER_ARCHIVE after archiving.
   */
  retention: Pick<RecordingRetention, 'deleteExpired'>;
  /** Makes stopped recordings final (seekable, then announced); started by every stop. */
  finalisation: RecordingFinalisation;
}

export function composeRecordings(
  shared: SharedDependencies,
  options: {
    onRecordingChange?: RecordingChangeHook;
    /** Where a recording that becomes available (final) is told; none by default. */
    outbox?: WebhookOutbox;
  } = {},
): Recordings {
  const { db, config } = shared;
  const store = new RecordingStore(db);
  const chunks = new RecordingChunkStore(db);
  const files = new RecordingFiles(config.recordings.dir);
  const tokenBox = shared.boxes.recordingTokens;
  // Starting, stopping and finalising tell the interview's lifecycle, which tells `outbox`.
  const lifecycle = composeLifecycle(shared, { outbox: options.outbox }).recordings;
  const finalisation = new RecordingFinalisation({
    store: new RecordingFinalisationStore(db),
    files,
    lifecycle,
    logger: shared.logger,
  });
  const onRecordingChange = options.onRecordingChange ?? (() => {});
  const service = new RecordingService({
    recordings: store,
    chunks,
    lifecycle,
    files,
    tokenBox,
    clock: shared.clock,
    limits: config.recordings,
    onRecordingChange: (eventId, change) => {
      // Every stop, from whichever path, is told here once it has committed.
      if (!change.active) finalisation.finaliseSoon(change.recordingId);
      return onRecordingChange(eventId, change);
    },
    logger: shared.logger,
  });
  const retention = new RecordingRetention(
    store,
    chunks,
    files,
    config.recordings.keepAfterArchiveMs,
  );
  const pages = new LobbyPages();
  return {
    service,
    streamRouter: () =>
      recordingStreamRouter({
        streamable: (token) => service.streamable(token),
        root: files.root,
        notFound: (res) => pages.notFound(res),
      }),
    links: new RecordingLinks(store, tokenBox, config.publicUrl),
    retention: {
      deleteExpired: async (now) => {
        await finalisation.finaliseLeftOver(now);
        return retention.deleteExpired(now);
      },
    },
    finalisation,
  };
}
