import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { endianness } from 'node:os';

/**
 * The WAL-index header of a database in WAL mode, read from its `-shm` file
 * (https://www.sqlite.org/walformat.html, "The WAL-Index Header"): two 48-byte copies of the
 * header, each with `iChange` (moved by every commit) at byte 8, `isInit` at 12 and `mxFrame`
 * (the last valid frame of the WAL) at 16; then `nBackfill` (the frames already copied into the
 * database) at 96; native byte order. Every connection in WAL mode, in every process, maps this
 * file and every commit updates it, so a read is one `pread`: no lock, no SQL. Processes running
 * different SQLite versions share the file, which is why its layout is fixed (version 3007000).
 */
const HEADER_BYTES = 136;
const INDEX_VERSION = 3007000;

export interface WalState {
  /** Moves on every commit, in any process. */
  readonly change: number;
  /** The WAL's length in frames (pages): where the next commit appends. */
  readonly lastFrame: number;
  /** Frames in the WAL not yet copied into the database file. */
  readonly pendingFrames: number;
}

/** Reads the header through a descriptor of the `-shm` file (`shmDescriptor`). */
export class WalIndex {
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private readonly u32 =
    endianness() === 'LE'
      ? (offset: number) => this.header.readUInt32LE(offset)
      : (offset: number) => this.header.readUInt32BE(offset);

  constructor(private readonly fd: number) {}

  /**
   * The state now, or undefined when the header cannot be read at this moment (its two copies
   * differ: a commit is writing it). Throws UnknownWalIndex for a layout this code does not know.
   */
  read(): WalState | undefined {
    if (readSync(this.fd, this.header, 0, HEADER_BYTES, 0) < HEADER_BYTES) return undefined;
    if (this.u32(0) !== INDEX_VERSION) throw new UnknownWalIndex(this.u32(0));
    if (this.header[12] !== 1) return undefined;
    if (!this.header.subarray(0, 48).equals(this.header.subarray(48, 96))) return undefined;
    const lastFrame = this.u32(16);
    return { change: this.u32(8), lastFrame, pendingFrames: Math.max(0, lastFrame - this.u32(96)) };
  }
}

export class UnknownWalIndex extends Error {
  override name = 'UnknownWalIndex';
  constructor(version: number) {
    super(`WAL-index header version ${version}, not ${INDEX_VERSION}`);
  }
}

/**
 * Descriptors of `-shm` files, one per file in the process. SQLite locks the `-shm` file with
 * POSIX record locks, which belong to the process, and closing any descriptor of a file drops
 * every such lock the process holds on it: closing ours while a connection of this process has
 * the database open would silently free its locks (the write lock, read marks, the "in use"
 * lock that keeps another process from resetting the index). So a descriptor is closed only once
 * SQLite has removed or replaced the file (its last connection closed); until then it is kept,
 * and used again by the next handle on the same database.
 */
const descriptors = new Map<string, { fd: number; users: number }>();
/**
 * Descriptors of a `-shm` file SQLite has since replaced, by how many users still hold each: one
 * is closed when its last user lets go, never before, so that its number cannot be handed to
 * another file while someone still reads through it.
 */
const retired = new Map<number, number>();

/** A descriptor of `<databaseFile>-shm`, which must exist (a connection has the WAL open). */
export function shmDescriptor(databaseFile: string): number {
  const path = `${databaseFile}-shm`;
  const known = descriptors.get(path);
  if (known && !replaced(path, known.fd)) {
    known.users += 1;
    return known.fd;
  }
  if (known && known.users > 0) retired.set(known.fd, known.users);
  else if (known) closeSync(known.fd);
  const fd = openSync(path, 'r');
  descriptors.set(path, { fd, users: 1 });
  return fd;
}

/**
 * One user of `fd` (from shmDescriptor) is done; closes it if nobody else uses it and SQLite is
 * done with the file too.
 */
export function releaseShmDescriptor(databaseFile: string, fd: number): void {
  const path = `${databaseFile}-shm`;
  const known = descriptors.get(path);
  if (known?.fd === fd) {
    known.users = Math.max(0, known.users - 1);
    if (known.users === 0 && replaced(path, known.fd)) {
      closeSync(known.fd);
      descriptors.delete(path);
    }
    return;
  }
  const users = retired.get(fd);
  if (users === undefined) return;
  if (users > 1) {
    retired.set(fd, users - 1);
  } else {
    retired.delete(fd);
    closeSync(fd);
  }
}

/** Whether the file at `path` is no longer the one `fd` has open (removed or replaced). */
function replaced(path: string, fd: number): boolean {
  const now = statSync(path, { throwIfNoEntry: false });
  return !now || now.ino !== fstatSync(fd).ino || now.dev !== fstatSync(fd).dev;
}
