import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { isUniqueViolation } from '../db/errors.js';
import type { EpochMs, RecordingRow } from '../db/rows.js';
import { NotFoundError } from '../errors.js';
import { TransitionRefused } from '../interviews/lifecycle/interview-lifecycle.js';
import type {
  RecordingLifecycle,
  RecordingStep,
} from '../interviews/lifecycle/recording-lifecycle.js';
import { sha256Hex } from '../security/random.js';
import type { SecretBox } from '../security/secret-box.js';
import { ChunkAppends } from './chunk-appends.js';
import type { RecordingChunkStore } from './recording-chunk-store.js';
import type { RecordingFiles } from './recording-files.js';
import { RecordingRefused } from './recording-refused.js';
import type { RecordingStore } from './recording-store.js';
import { mintRecordingToken, RECORDING_TOKEN_SHAPE } from './recording-tokens.js';

/**
 * Told after a recording started or stopped has committed (the live room shows who records).
 * A failing hook is logged; it never undoes the change.
 */
export type RecordingChangeHook = (
  eventId: string,
  change: { recordingId: string; active: boolean },
) => void | Promise<void>;

export interface RecordingLimits {
  /** RECORDING_MAX_BYTES: a recording never grows past it. */
  maxBytes: number;
  /** RECORDING_CHUNK_MAX_BYTES. */
  chunkMaxBytes: number;
  /** RECORDING_MAX_CHUNKS: a recording never has more chunks (each is a row). */
  maxChunks: number;
  /** RECORDING_CHUNK_CLAIM_SECONDS, in milliseconds: when a chunk's claim is taken for lost. */
  chunkClaimMs: number;
}

/** What the streaming route needs of a recording: its file, and how much of it is acknowledged. */
export interface StreamableRecording {
  /** Relative to RECORDINGS_DIR. */
  path: string;
  bytes: number;
}

export interface RecordingServiceDependencies {
  recordings: RecordingStore;
  chunks: RecordingChunkStore;
  /** The interview's side: whether an interview is in progress, partners told of a recording. */
  lifecycle: RecordingLifecycle;
  files: RecordingFiles;
  tokenBox: SecretBox;
  clock: Clock;
  limits: RecordingLimits;
  onRecordingChange: RecordingChangeHook;
  logger: Logger;
}

/**
 * Recordings made by an interviewer's browser while the interviewee is in the interview
 * (README "Recordings"). A recording grows by numbered chunks: chunk `n` is appended only when
 * `n` chunks are acknowledged, and the database row (`bytes`, `chunks`) is the truth about the
 * file. A chunk is acknowledged only once it is on disk and its commit has moved the row, so an
 * acknowledged chunk survives a crash; bytes past the row's count (a crash between a write and
 * its commit) are never served and are overwritten by the next chunk.
 */
export class RecordingService {
  private readonly appends: ChunkAppends;

  constructor(private readonly deps: RecordingServiceDependencies) {
    this.appends = new ChunkAppends({
      recordings: deps.recordings,
      chunks: deps.chunks,
      files: deps.files,
      clock: deps.clock,
      maxBytes: deps.limits.maxBytes,
      maxChunks: deps.limits.maxChunks,
      claimMs: deps.limits.chunkClaimMs,
      existing: (eventId, recordingId) => this.existing(eventId, recordingId),
      stop: (row) => this.stopRow(row),
    });
  }

  /**
   * Starts recording the interview in progress: the event is open, its interviewee is
   * INTERVIEWING and the open record gets the recording. One active recording per event; one left
   * running from an interview that has since ended is stopped here.
   */
  async start(eventId: string, interviewerId: string): Promise<{ id: string }> {
    const { recordings, lifecycle } = this.deps;
    const token = mintRecordingToken(this.deps.tokenBox);
    const id = randomUUID();
    const leftRunning = await lifecycle
      .start(eventId, interviewerId, async (step) => {
        const store = recordings.on(step.tx);
        const active = await store.activeOf(eventId);
        if (active?.record_id === step.recordId) throw alreadyRecording(active.id);
        // The browser that recorded an interview now over never stopped: its recording ends here.
        if (active) await this.stopIn(store, active, step);
        try {
          await store.insert({
            id,
            event_id: eventId,
            record_id: step.recordId,
            started_by: interviewerId,
            token_hash: token.hash,
            token_sealed: token.sealed,
            bytes: 0,
            chunks: 0,
            status: 'recording',
            started_at: step.now,
            stopped_at: null,
            deleted_at: null,
            finalised_at: null,
            seekable: false,
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw alreadyRecording();
          throw error;
        }
        return active ?? null;
      })
      .catch((error: unknown) => {
        throw refusalOf(error);
      });
    if (leftRunning) this.tell(eventId, leftRunning.id, false);
    this.tell(eventId, id, true);
    return { id };
  }

  /**
   * Appends chunk `seq` if it is the next one; a committed chunk sent again with the same bytes
   * is acknowledged again, nothing written. The rules, decided in the database so that any
   * process may handle any copy of a chunk: ChunkAppends.
   */
  async appendChunk(
    eventId: string,
    recordingId: string,
    interviewerId: string,
    seq: number,
    data: Buffer,
  ): Promise<void> {
    const { limits } = this.deps;
    if (!Number.isSafeInteger(seq) || seq < 0) {
      throw new RecordingRefused('bad-input', 'The chunk number must be a whole number from 0.');
    }
    if (data.length === 0) throw new RecordingRefused('bad-input', 'The chunk is empty.');
    if (data.length > limits.chunkMaxBytes) throw chunkTooLarge(limits.chunkMaxBytes);
    await this.appends.append({ eventId, recordingId, interviewerId, seq, data });
  }

  /** Stops the recording; any invited interviewer may, so that a lost browser's one can end. */
  async stop(eventId: string, recordingId: string, interviewerId: string): Promise<void> {
    if (!(await this.deps.lifecycle.isInterviewer(eventId, interviewerId))) {
      throw notAnInterviewer();
    }
    await this.stopRow(await this.existing(eventId, recordingId));
  }

  /** The event's recording in progress, for whoever opens one of its pages meanwhile. */
  async active(eventId: string): Promise<{ recordingId: string; startedAt: EpochMs } | null> {
    const row = await this.deps.recordings.activeOf(eventId);
    return row ? { recordingId: row.id, startedAt: row.started_at } : null;
  }

  /** The recording a streaming token opens, or null for an unknown, altered or deleted one. */
  async streamable(token: string): Promise<StreamableRecording | null> {
    if (!RECORDING_TOKEN_SHAPE.test(token)) return null;
    const row = await this.deps.recordings.streamable(sha256Hex(token));
    if (!row) return null;
    return { path: this.deps.files.servedPath(row), bytes: row.bytes };
  }

  private async existing(eventId: string, recordingId: string): Promise<RecordingRow> {
    const row = await this.deps.recordings.find(eventId, recordingId);
    if (!row || row.deleted_at !== null) {
      throw new RecordingRefused('not-found', 'There is no such recording in this event.');
    }
    return row;
  }

  private async stopRow(row: RecordingRow): Promise<void> {
    const { recordings, lifecycle } = this.deps;
    const changed = await lifecycle.stop(
      row.event_id,
      (step) => this.stopIn(recordings.on(step.tx), row, step),
      () => false,
    );
    if (changed) this.tell(row.event_id, row.id, false);
  }

  /**
   * Stops a recording in the step's transaction; true when this call stopped it. Partners hear
   * of it once it is final (src/recordings/recording-finalisation.ts), which the stop starts.
   */
  private async stopIn(
    store: RecordingStore,
    row: RecordingRow,
    step: RecordingStep,
  ): Promise<boolean> {
    return store.stop(row.id, step.now);
  }

  private tell(eventId: string, recordingId: string, active: boolean): void {
    const failed = (error: unknown) =>
      this.deps.logger.error({ err: error, eventId, recordingId }, 'onRecordingChange failed');
    try {
      void Promise.resolve(this.deps.onRecordingChange(eventId, { recordingId, active })).catch(
        failed,
      );
    } catch (error) {
      failed(error);
    }
  }
}

/**
 * The lifecycle's refusal in the recordings' terms: no such event, not an interviewer of it, no
 * interview in progress to record. Anything else passes unchanged.
 */
function refusalOf(error: unknown): unknown {
  if (error instanceof NotFoundError) {
    return error.field === 'interviewerId'
      ? notAnInterviewer()
      : new RecordingRefused('not-found', error.message);
  }
  if (error instanceof TransitionRefused) return new RecordingRefused('conflict', error.message);
  return error;
}

function notAnInterviewer(): RecordingRefused {
  return new RecordingRefused('forbidden', 'You are not an interviewer of this event.');
}

function alreadyRecording(activeRecordingId?: string): RecordingRefused {
  return new RecordingRefused(
    'conflict',
    'Another interviewer is already recording this interview.',
    activeRecordingId ? { activeRecordingId } : {},
  );
}

function chunkTooLarge(limit: number): RecordingRefused {
  return new RecordingRefused('too-large', `A chunk may be at most ${limit} bytes.`);
}
