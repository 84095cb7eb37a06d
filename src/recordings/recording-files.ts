import { constants } from 'node:fs';
import { mkdir, open, rmdir, truncate, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** Ids the service generated itself; nothing else ever becomes part of a path. */
const ID_SHAPE = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The recording files: `<RECORDINGS_DIR>/<event id>/<recording id>.webm`, directories 0700 and
 * files 0600. The database row says how many bytes of a file are acknowledged; these methods
 * only do what they are told about offsets.
 */
export class RecordingFiles {
  /** The absolute RECORDINGS_DIR. */
  readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  /** The file's path relative to `root`. */
  relativePath(eventId: string, recordingId: string): string {
    if (!ID_SHAPE.test(eventId) || !ID_SHAPE.test(recordingId)) {
      throw new Error('recording ids must be generated ids');
    }
    return join(eventId, `${recordingId}.webm`);
  }

  /**
   * The seekable copy finalisation writes (src/recordings/recording-finalisation.ts), relative to
   * `root`; served instead of the recorded file once the row says `seekable`.
   */
  seekablePath(eventId: string, recordingId: string): string {
    return this.relativePath(eventId, recordingId).replace(/\.webm$/, '.seekable.webm');
  }

  /** The file a recording's row says is served, relative to `root`. */
  servedPath(row: { event_id: string; id: string; seekable: boolean | number }): string {
    return row.seekable
      ? this.seekablePath(row.event_id, row.id)
      : this.relativePath(row.event_id, row.id);
  }

  absolute(relativePath: string): string {
    return join(this.root, relativePath);
  }

  /** Deletes the recorded file once its seekable copy is the one served; missing is no error. */
  async removeRecorded(eventId: string, recordingId: string): Promise<void> {
    await unlink(join(this.root, this.relativePath(eventId, recordingId))).catch(
      ignoreCodes('ENOENT'),
    );
  }

  /**
   * Writes `data` at byte `at` and returns once the bytes are on disk, answering whether the file
   * goes on past them (bytes of a chunk that was never acknowledged: a crash between its write
   * and its commit). The caller holds the claim on the chunk that starts at `at` (src/recordings/
   * chunk-appends.ts): every byte before `at` is acknowledged and none after it is. Cutting that
   * tail is `cutAfter`'s, which the caller runs only once it has seen its claim still current.
   */
  async writeAt(eventId: string, recordingId: string, at: number, data: Buffer): Promise<boolean> {
    const path = join(this.root, this.relativePath(eventId, recordingId));
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const file = await open(path, constants.O_RDWR | constants.O_CREAT, 0o600);
    let tailFollows: boolean;
    try {
      const { size } = await file.stat();
      tailFollows = size > at + data.length;
      if (size < at) {
        throw new Error(`recording file ${path} has ${size} bytes, ${at} were acknowledged`);
      }
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await file.write(
          data,
          written,
          data.length - written,
          at + written,
        );
        written += bytesWritten;
      }
      await file.sync();
    } finally {
      await file.close();
    }
    // The first chunk created the file (and maybe its directory): make their names durable too.
    if (at === 0) {
      await syncDirectory(dirname(path));
      await syncDirectory(this.root);
    }
    return tailFollows;
  }

  /** Cuts the file to its first `length` bytes. */
  async cutAfter(eventId: string, recordingId: string, length: number): Promise<void> {
    await truncate(join(this.root, this.relativePath(eventId, recordingId)), length);
  }

  /**
   * Deletes the recording's files (as recorded and its seekable copy), and its event's directory
   * once empty; a missing file is no error.
   */
  async remove(eventId: string, recordingId: string): Promise<void> {
    const path = join(this.root, this.relativePath(eventId, recordingId));
    await unlink(path).catch(ignoreCodes('ENOENT'));
    await unlink(join(this.root, this.seekablePath(eventId, recordingId))).catch(
      ignoreCodes('ENOENT'),
    );
    await rmdir(dirname(path)).catch(ignoreCodes('ENOENT', 'ENOTEMPTY', 'EEXIST'));
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

function ignoreCodes(...codes: string[]) {
  return (error: NodeJS.ErrnoException) => {
    if (!codes.includes(error.code ?? '')) throw error;
  };
}
