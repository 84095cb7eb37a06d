import type { Router } from 'express';
import { composeLifecycle } from '../interviews/lifecycle/compose.js';
import { LobbyPages } from '../lobby/lobby-pages.js';
import type { SharedDependencies } from '../shared-dependencies.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import { RecordingChunkStore } from './recording-chunk-store.js';
import { RecordingFiles } from './recording-files.js';
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
  /** The sweeper's step that deletes recordings RECORDINGS_KEEP_DAYS_AFTER_ARCHIVE after archiving. */
  retention: RecordingRetention;
}

export function composeRecordings(
  shared: SharedDependencies,
  options: {
    onRecordingChange?: RecordingChangeHook;
    /** Where a recording that becomes available is told; none by default (the CLI reads only). */
    outbox?: WebhookOutbox;
  } = {},
): Recordings {
  const { db, config } = shared;
  const store = new RecordingStore(db);
  const chunks = new RecordingChunkStore(db);
  const files = new RecordingFiles(config.recordings.dir);
  const tokenBox = shared.boxes.recordingTokens;
  const service = new RecordingService({
    recordings: store,
    chunks,
    // Starting and stopping go through the interview's lifecycle, which tells `outbox`.
    lifecycle: composeLifecycle(shared, { outbox: options.outbox }).recordings,
    files,
    tokenBox,
    clock: shared.clock,
    limits: config.recordings,
    onRecordingChange: options.onRecordingChange ?? (() => {}),
    logger: shared.logger,
  });
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
    retention: new RecordingRetention(store, chunks, files, config.recordings.keepAfterArchiveMs),
  };
}
