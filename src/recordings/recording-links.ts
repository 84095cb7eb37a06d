import type { EpochMs, RecordingRow } from '../db/rows.js';
import type { SecretBox } from '../security/secret-box.js';
import type { RecordingStore } from './recording-store.js';
import { recordingUrl } from './recording-tokens.js';

/** A recording as the interviewer lobby lists it. */
export interface EventRecording {
  url: string;
  recordId: string;
  startedAt: EpochMs;
  /** Null while it is being recorded. */
  stoppedAt: EpochMs | null;
  /** Stopped and finalised: seekable (or kept as recorded) and announced. */
  final: boolean;
}

/**
 * `VirtualInterviewRecord.recordingUrl`: the streaming URL of each record's latest recording
 * that has content and was not deleted. Unscoped: only for records already read through the
 * employer-scoped Interview API.
 */
export class RecordingLinks {
  constructor(
    private readonly store: RecordingStore,
    private readonly tokenBox: SecretBox,
    private readonly publicUrl: string,
  ) {}

  /**
   * The event's recordings with content, oldest first, for the interviewer lobby (whose link
   * already grants the event).
   */
  async ofEvent(eventId: string): Promise<EventRecording[]> {
    const rows = await this.store.withContentOfEvent(eventId);
    return rows.map((row) => ({
      url: recordingUrl(this.publicUrl, this.tokenBox.open(row.token_sealed)),
      recordId: row.record_id,
      startedAt: Number(row.started_at),
      stoppedAt: row.stopped_at === null ? null : Number(row.stopped_at),
      final: row.finalised_at !== null,
    }));
  }

  /** One URL (or null) per record id, in the order given; one statement for all of them. */
  async urlsOfRecords(recordIds: readonly string[]): Promise<Array<string | null>> {
    const latest = new Map<string, RecordingRow>();
    for (const row of await this.store.withContentOfRecords(recordIds)) {
      if (!latest.has(row.record_id)) latest.set(row.record_id, row);
    }
    return recordIds.map((id) => {
      const row = latest.get(id);
      return row ? recordingUrl(this.publicUrl, this.tokenBox.open(row.token_sealed)) : null;
    });
  }
}
