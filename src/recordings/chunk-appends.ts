import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { RecordingChunkRow, RecordingRow } from '../db/rows.js';
import type { RecordingChunkStore } from './recording-chunk-store.js';
import type { RecordingFiles } from './recording-files.js';
import { RecordingRefused } from './recording-refused.js';
import type { RecordingStore } from './recording-store.js';

/**
 * How long a request waits for a chunk another request holds (in this process or another)
 * before it answers "come back later": a chunk is written and committed in milliseconds, so a
 * retry that arrives while its first copy is still being handled usually gets the first copy's
 * outcome.
 */
const IN_FLIGHT_WAIT_MS = 3000;
const FIRST_POLL_MS = 10;
const LONGEST_POLL_MS = 200;
/** What the "come back later" answer asks the client to wait (Retry-After). */
const RETRY_AFTER_SECONDS = 1;

export interface ChunkRequest {
  eventId: string;
  recordingId: string;
  interviewerId: string;
  seq: number;
  data: Buffer;
}

export interface ChunkAppendsDependencies {
  recordings: RecordingStore;
  chunks: RecordingChunkStore;
  files: RecordingFiles;
  clock: Clock;
  /** RECORDING_MAX_BYTES. */
  maxBytes: number;
  /** RECORDING_MAX_CHUNKS. */
  maxChunks: number;
  /** RECORDING_CHUNK_CLAIM_SECONDS, in milliseconds. */
  claimMs: number;
  /** The recording, or the refusal for a missing or deleted one. */
  existing(eventId: string, recordingId: string): Promise<RecordingRow>;
  /** Stops a recording that reached RECORDING_MAX_BYTES (and tells the room). */
  stop(row: RecordingRow): Promise<void>;
}

/** What one look at the database decided for a chunk request. */
type Decision =
  | { kind: 'done' }
  | { kind: 'claimed'; claim: RecordingChunkRow }
  /** Another request holds the number, or took it just now: look again shortly. */
  | { kind: 'held' };

/**
 * Appends chunks to recordings, deciding in the database before the file is touched, so that any
 * number of processes may handle copies of one chunk at once (a client's retry on another
 * connection) and the file never loses an acknowledged byte:
 *
 * - chunk `n` is appended only when `n` chunks are committed: its request first claims `n` (one
 *   row per recording and number), writes the bytes at the committed length, then commits the
 *   chunk and moves the recording's byte count forward with a compare-and-set on it. Only the
 *   claim's holder writes at or past the committed length, so nothing acknowledged is ever
 *   overwritten or cut; a crash between the write and the commit leaves bytes past the committed
 *   length, which are never served and are overwritten by the next claim.
 * - a committed number sent again with the same bytes (by digest) is acknowledged again, nothing
 *   written; with other bytes it is refused (409), nothing written.
 * - a number held by another request is waited for (IN_FLIGHT_WAIT_MS), then answered with its
 *   outcome, or 409 with Retry-After while it is still held.
 * - any other number is refused (409) with the number expected.
 * - a claim older than `claimMs` is taken for lost (its process died) and may be taken over; a
 *   holder never writes once half of that has passed, so a slow holder and its successor never
 *   write at once.
 */
export class ChunkAppends {
  constructor(private readonly deps: ChunkAppendsDependencies) {}

  async append(request: ChunkRequest): Promise<void> {
    const digest = createHash('sha256').update(request.data).digest('hex');
    const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
    let pause = FIRST_POLL_MS;
    for (;;) {
      const decision = await this.decide(request, digest);
      if (decision.kind === 'done') return;
      if (decision.kind === 'claimed' && (await this.writeAndCommit(request, decision.claim))) {
        return;
      }
      if (Date.now() >= deadline) throw inFlight(request.seq);
      await sleep(pause);
      pause = Math.min(LONGEST_POLL_MS, pause * 2);
    }
  }

  private async decide(request: ChunkRequest, digest: string): Promise<Decision> {
    const { chunks, clock, maxBytes, maxChunks, claimMs } = this.deps;
    const { eventId, recordingId, seq, data } = request;
    const row = await this.deps.existing(eventId, recordingId);
    if (row.started_by !== request.interviewerId) {
      throw new RecordingRefused(
        'forbidden',
        'Only the interviewer who started this recording can add to it.',
      );
    }
    const chunk = await chunks.find(recordingId, seq);
    if (chunk?.committed_at != null) {
      if (chunk.digest === digest) return { kind: 'done' };
      throw differentContent(seq);
    }
    if (seq < row.chunks) {
      // Acknowledged before chunks had rows (migration 0017): no digest to compare, so the last
      // one is taken for a retry, as it was then.
      if (seq === row.chunks - 1) return { kind: 'done' };
      throw unexpectedChunk(row.chunks);
    }
    if (seq > row.chunks) throw unexpectedChunk(row.chunks);
    if (row.status !== 'recording') throw stopped();
    const now = clock.now();
    if (chunk && now - chunk.claimed_at < claimMs) return { kind: 'held' };
    if (row.bytes + data.length > maxBytes || seq >= maxChunks) {
      await this.deps.stop(row);
      throw new RecordingRefused(
        'too-large',
        seq >= maxChunks
          ? `The recording has reached its limit of ${maxChunks} chunks and has stopped.`
          : `The recording has reached its limit of ${maxBytes} bytes and has stopped.`,
      );
    }
    const claim: RecordingChunkRow = {
      recording_id: recordingId,
      seq,
      start_byte: row.bytes,
      size: data.length,
      digest,
      claim_id: randomUUID(),
      claimed_at: now,
      committed_at: null,
    };
    const claimed = chunk
      ? await chunks.takeOver(chunk.claim_id, claim)
      : await chunks.claim(claim);
    return claimed ? { kind: 'claimed', claim } : { kind: 'held' };
  }

  /** True once the chunk is committed; false when the claim was lost (decide again). */
  private async writeAndCommit(request: ChunkRequest, claim: RecordingChunkRow): Promise<boolean> {
    const { recordings, chunks, files, clock, claimMs } = this.deps;
    const { eventId, recordingId, seq, data } = request;
    let committed = false;
    try {
      // Past half its life a claim may be about to be taken over: its holder must not write.
      if (clock.now() - claim.claimed_at >= claimMs / 2) return false;
      const end = claim.start_byte + data.length;
      const tailFollows = await files.writeAt(eventId, recordingId, claim.start_byte, data);
      // A tail past this chunk is cut only by a holder that still holds its claim after its
      // write: a holder that stalled there may have been taken over, and bytes past its chunk
      // may by now be a successor's, acknowledged.
      if (tailFollows && (await this.stillHolds(claim)))
        await files.cutAfter(eventId, recordingId, end);
      committed = await recordings.inTransaction(async (store, tx) => {
        if (!(await store.advance(recordingId, seq, claim.start_byte, data.length))) return false;
        if (await chunks.on(tx).commit(recordingId, seq, claim.claim_id, clock.now())) return true;
        // Taken over while this request wrote: the successor's commit is the one that counts.
        throw new LostClaim();
      });
      return committed;
    } catch (error) {
      if (error instanceof LostClaim) return false;
      throw error;
    } finally {
      if (!committed) await chunks.release(recordingId, seq, claim.claim_id);
    }
  }

  /** Whether `claim` is still the current, uncommitted claim of its chunk, and young enough. */
  private async stillHolds(claim: RecordingChunkRow): Promise<boolean> {
    const { chunks, clock, claimMs } = this.deps;
    if (clock.now() - claim.claimed_at >= claimMs / 2) return false;
    const current = await chunks.find(claim.recording_id, claim.seq);
    return current?.claim_id === claim.claim_id && current.committed_at == null;
  }
}

/** Rolls back a commit whose claim another request took over. */
class LostClaim extends Error {}

function unexpectedChunk(expectedSeq: number): RecordingRefused {
  return new RecordingRefused('conflict', `The next chunk of this recording is ${expectedSeq}.`, {
    expectedSeq,
  });
}

function differentContent(seq: number): RecordingRefused {
  return new RecordingRefused(
    'conflict',
    `Chunk ${seq} of this recording was already saved with different content; it is not replaced.`,
  );
}

function inFlight(seq: number): RecordingRefused {
  return new RecordingRefused(
    'conflict',
    `Chunk ${seq} of this recording is still being saved by another request. Send it again shortly.`,
    {},
    RETRY_AFTER_SECONDS,
  );
}

function stopped(): RecordingRefused {
  return new RecordingRefused('conflict', 'This recording has stopped.');
}
