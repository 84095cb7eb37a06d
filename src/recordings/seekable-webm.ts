import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Decoder, Reader, tools, type EBMLElementDetail } from 'ts-ebml';

/** How much of a recording is read (and decoded) at a time. */
const SLICE_BYTES = 256 * 1024;

/** Every EBML document (so every WebM) starts with the EBML element's id. */
const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** The recording's bytes are not a WebM that can be made seekable (not one, or cut short). */
export class NotRewritable extends Error {}

/**
 * Writes a seekable copy of the first `length` bytes of the WebM at `source` to `target`: the
 * metadata MediaRecorder wrote (EBML header, Info, Tracks) gains a Duration, a SeekHead and Cues
 * (ts-ebml's `makeMetadataSeekable`), and the clusters follow unchanged. Answers the copy's length.
 *
 * Memory stays bounded whatever the recording's size: the file is read and decoded SLICE_BYTES
 * at a time and ts-ebml's Reader keeps the elements of one cluster at most (it drops them at the
 * next), plus one cue per cluster; the clusters are then copied slice by slice. Between slices
 * the event loop runs other work, so a long recording delays requests by one slice at most.
 *
 * The copy is written to a temporary file beside `target`, flushed, then renamed over it, and
 * the directory flushed: `target` is either absent, a previous identical copy, or whole. The
 * source is never written.
 */
export async function writeSeekableCopy(
  source: string,
  length: number,
  target: string,
): Promise<number> {
  const input = await open(source, constants.O_RDONLY);
  try {
    const { metadata, metadataSize } = await readSeekableMetadata(input, length);
    const temporary = `${target}.${randomUUID()}.tmp`;
    const output = await open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      0o600,
    );
    let renamed = false;
    try {
      await writeAll(output, metadata);
      await copyRange(input, output, metadataSize, length);
      await output.sync();
      await output.close();
      await rename(temporary, target);
      renamed = true;
    } finally {
      if (!renamed) {
        await output.close().catch(() => {});
        await unlink(temporary).catch(() => {});
      }
    }
    await syncDirectory(dirname(target));
    return metadata.length + (length - metadataSize);
  } finally {
    await input.close();
  }
}

/** The new metadata, and where the original's ended (the first cluster). */
async function readSeekableMetadata(
  input: FileHandle,
  length: number,
): Promise<{ metadata: Buffer; metadataSize: number }> {
  const decoder = new Decoder();
  const reader = new Reader();
  // The recording is kept as recorded: DefaultDuration stays (ts-ebml drops it for an old MSE bug).
  reader.drop_default_duration = false;
  const clusters = new ClusterStarts();
  const buffer = Buffer.alloc(SLICE_BYTES);
  const start = await input.read(buffer, 0, EBML_MAGIC.length, 0);
  if (!buffer.subarray(0, start.bytesRead).equals(EBML_MAGIC)) throw new NotRewritable('no WebM');
  try {
    for (let at = 0; at < length;) {
      const { bytesRead } = await input.read(buffer, 0, Math.min(SLICE_BYTES, length - at), at);
      if (bytesRead === 0) throw new NotRewritable(`the file ends at ${at} of ${length} bytes`);
      // The decoder keeps what it cannot parse yet, so it gets a copy, not the reused buffer.
      const slice = new Uint8Array(bytesRead);
      slice.set(buffer.subarray(0, bytesRead));
      for (const element of decoder.decode(slice.buffer)) {
        // ts-ebml's Reader prints an element it does not know to the console, bytes and all.
        if (element.name !== 'unknown') reader.read(element);
        clusters.see(element);
      }
      at += bytesRead;
      await yieldToEventLoop();
    }
    reader.stop();
  } catch (error) {
    if (isFileError(error)) throw error;
    throw new NotRewritable(`not a WebM ts-ebml can read: ${String(error)}`);
  }
  const metadatas: EBMLElementDetail[] = reader.metadatas;
  if (reader.trackInfo.type === 'nothing') throw new NotRewritable('no audio or video track');
  // The Reader adds a frame's length to its last SimpleBlock; with BlockGroups, the last block.
  const duration = Math.max(reader.duration, clusters.lastBlockTime);
  const cues = reader.cues.length ? reader.cues : clusters.cues(reader.trackInfo.trackNumber);
  if (
    !metadatas.some((element) => element.name === 'Tracks') ||
    cues.length === 0 ||
    !(reader.metadataSize > 0 && reader.metadataSize <= length) ||
    !(Number.isFinite(duration) && duration > 0)
  ) {
    throw new NotRewritable('no tracks, clusters or duration');
  }
  let metadata: Buffer;
  try {
    metadata = unpooled(() => tools.makeMetadataSeekable(metadatas, duration, cues));
  } catch (error) {
    throw new NotRewritable(`its metadata cannot be rewritten: ${String(error)}`);
  }
  if (!metadata.subarray(0, 4).equals(EBML_MAGIC)) throw new NotRewritable('bad new metadata');
  return { metadata, metadataSize: reader.metadataSize };
}

/**
 * ts-ebml's encoder answers `Buffer.concat(…).buffer`, which for a small result is Node's whole
 * shared 8 KiB pool slab rather than the result's bytes. With the pool off for the (synchronous)
 * call, the slab is the result.
 */
function unpooled(encode: () => ArrayBuffer): Buffer {
  const poolSize = Buffer.poolSize;
  Buffer.poolSize = 0;
  try {
    return Buffer.from(encode());
  } finally {
    Buffer.poolSize = poolSize;
  }
}

/**
 * Where each cluster starts and its time, and the latest block's time, for when ts-ebml's
 * Reader finds no cues or no duration: it reads SimpleBlocks only, and Chrome writes the frames
 * of a canvas with alpha as BlockGroups (with BlockAdditions) instead.
 */
class ClusterStarts {
  private readonly starts: Array<{ position: number; time: number }> = [];
  /** The latest block's time, in TimestampScale units. */
  lastBlockTime = 0;

  see(element: EBMLElementDetail): void {
    if (element.name === 'Cluster' && element.type === 'm' && !element.isEnd) {
      this.starts.push({ position: element.tagStart, time: -1 });
    } else if (element.name === 'Timestamp' && element.type === 'u') {
      const last = this.starts.at(-1);
      if (last && last.time < 0) last.time = element.value;
    } else if (
      (element.name === 'Block' || element.name === 'SimpleBlock') &&
      element.type === 'b'
    ) {
      const cluster = this.starts.at(-1)?.time ?? 0;
      const time = cluster + tools.ebmlBlock(element.data).timecode;
      this.lastBlockTime = Math.max(this.lastBlockTime, time);
    }
  }

  cues(track: number): Array<{ CueTrack: number; CueClusterPosition: number; CueTime: number }> {
    return this.starts
      .filter((start) => start.time >= 0)
      .map((start) => ({
        CueTrack: track,
        CueClusterPosition: start.position,
        CueTime: start.time,
      }));
  }
}

async function copyRange(input: FileHandle, output: FileHandle, from: number, to: number) {
  const buffer = Buffer.alloc(SLICE_BYTES);
  for (let at = from; at < to;) {
    const { bytesRead } = await input.read(buffer, 0, Math.min(SLICE_BYTES, to - at), at);
    if (bytesRead === 0) throw new NotRewritable(`the file ends at ${at} of ${to} bytes`);
    await writeAll(output, buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
}

async function writeAll(output: FileHandle, data: Buffer): Promise<void> {
  let written = 0;
  while (written < data.length) {
    const { bytesWritten } = await output.write(data, written, data.length - written);
    written += bytesWritten;
  }
}

async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, constants.O_RDONLY);
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

function isFileError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}
