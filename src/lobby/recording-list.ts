import type { LobbyView } from '../interviews/lifecycle/interview-lifecycle.js';
import type { EventRecording } from '../recordings/recording-links.js';
import { isoInstant, timeOfDay } from './schedule.js';

/** What the interviewer lobby asks of the recordings: the event's, with their links. */
export interface EventRecordings {
  ofEvent(eventId: string): Promise<EventRecording[]>;
}

/**
 * The interviewer lobby's list of the event's recordings: which interview each belongs to, when
 * it started, and whether it is still being recorded, being made seekable, or ready to watch
 * (its link works in every state; only a ready one can be sought).
 */
export function recordingListModel(view: LobbyView, recordings: readonly EventRecording[]) {
  const zone = view.event.timezone;
  return recordings.map((recording, index) => {
    const interview = view.records.findIndex((record) => record.id === recording.recordId);
    return {
      heading: `Recording ${index + 1}`,
      interview: interview >= 0 ? `Interview ${interview + 1}` : null,
      url: recording.url,
      started: { iso: isoInstant(recording.startedAt), text: timeOfDay(recording.startedAt, zone) },
      state:
        recording.stoppedAt === null
          ? 'Recording now'
          : recording.final
            ? 'Ready to watch'
            : 'Being prepared for playback',
    };
  });
}
