import { Decoder } from 'ts-ebml';

/** What a test checks of a WebM: its Duration, its Cues and its Clusters, by absolute offset. */
export interface WebmSummary {
  durationMs: number | null;
  cues: Array<{ timeMs: number; position: number }>;
  clusters: Array<{ timeMs: number; position: number }>;
}

/**
 * Decodes a WebM's EBML (ts-ebml, in slices as a stream arrives) and reads what makes it
 * seekable. Cue positions are made absolute (they count from the Segment's data).
 */
export function webmSummary(webm: Buffer): WebmSummary {
  const decoder = new Decoder();
  const summary: WebmSummary = { durationMs: null, cues: [], clusters: [] };
  let segmentStart = 0;
  let scale = 1_000_000;
  let duration: number | null = null;
  let cueTime = 0;
  for (let at = 0; at < webm.length; at += 4096) {
    const slice = new Uint8Array(webm.subarray(at, at + 4096));
    for (const element of decoder.decode(slice.buffer)) {
      const value = 'value' in element ? (element.value as number) : undefined;
      const opens = element.type === 'm' && !element.isEnd;
      if (element.name === 'Segment' && opens) segmentStart = element.dataStart;
      else if (element.name === 'TimestampScale') scale = value!;
      else if (element.name === 'Duration') duration = value!;
      else if (element.name === 'CueTime') cueTime = value!;
      else if (element.name === 'CueClusterPosition') {
        summary.cues.push({ timeMs: cueTime, position: segmentStart + value! });
      } else if (element.name === 'Cluster' && opens) {
        summary.clusters.push({ timeMs: -1, position: element.tagStart });
      } else if (element.name === 'Timestamp') summary.clusters.at(-1)!.timeMs = value!;
    }
  }
  summary.durationMs = duration === null ? null : (duration * scale) / 1_000_000;
  return summary;
}
