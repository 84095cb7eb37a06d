import type { RecordingRow } from '../db/rows.js';
import type { SecretBox } from '../security/secret-box.js';
import type { RecordingStore } from './recording-store.js';
import { recordingUrl } from './recording-tokens.js';

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
