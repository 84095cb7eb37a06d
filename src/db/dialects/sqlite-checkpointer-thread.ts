import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { UnknownWalIndex, WalIndex } from './sqlite-wal-index.js';

/** What the thread is given (sqlite-checkpointer.ts starts it). */
export interface CheckpointerSettings {
  filename: string;
  /** The `-shm` file's descriptor, the process's (sqlite-wal-index.ts `shmDescriptor`). */
  shmFd: number;
  synchronous: 'NORMAL' | 'FULL';
  /**
   * Checkpoint once this many WAL frames are not yet in the database file, and start the WAL over
   * once it is this long.
   */
  pages: number;
  /** How often the WAL-index header is read. */
  pollMs: number;
  /** After this long without a commit, a TRUNCATE checkpoint empties the WAL file. */
  idleMs: number;
}

/** What the thread says to the process that started it. */
export type CheckpointerReport =
  | { kind: 'ready' }
  /** The WAL-index header is not one this code reads: the writers keep SQLite's own checkpoints. */
  | { kind: 'unsupported'; reason: string };

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

const settings = workerData as CheckpointerSettings;
const port = parentPort!;
const report = (message: CheckpointerReport) => port.postMessage(message);

const connection = new Database(settings.filename, { fileMustExist: true });
// Never sleep on a lock: a PASSIVE checkpoint waits for nobody anyway, and a TRUNCATE that meets
// a writer or a reader gives up at once and is tried again after the next idle period.
connection.pragma('busy_timeout = 0');
// The checkpoint syncs the WAL before copying it and the database file after, as the writer would.
connection.pragma(`synchronous = ${settings.synchronous}`);
const passive = connection.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = connection.prepare('PRAGMA wal_checkpoint(RESTART)');
const truncate = connection.prepare('PRAGMA wal_checkpoint(TRUNCATE)');

const index = new WalIndex(settings.shmFd);
let lastChange: number | undefined;
let lastChangeAt = Date.now();
let emptied = false;

function poll(): void {
  const state = index.read();
  if (!state) return;
  if (state.change !== lastChange) {
    lastChange = state.change;
    lastChangeAt = Date.now();
    emptied = false;
  }
  if (state.pendingFrames >= settings.pages) {
    passive.get();
    startOver();
  } else if (!emptied && Date.now() - lastChangeAt >= settings.idleMs) {
    emptyWhenIdle();
  }
}

/**
 * A commit appends to the WAL unless, when its transaction begins, every frame of the WAL is in
 * the database file: then it writes from the WAL's beginning again. SQLite's own checkpoint runs
 * on the writer between its transactions, so it leaves nothing behind; this thread's runs while
 * writers commit (in every process), so the PASSIVE checkpoint nearly always leaves the frames
 * committed meanwhile, and the WAL would grow for as long as the writes go on. A RESTART
 * checkpoint right after copies those few frames holding the write lock (a writer that meets it
 * retries on a timer, sqlite-connection.ts `untilNotBusy`) and makes the next commit start the
 * WAL over. It gives up at once while a writer holds the lock or a reader is in the WAL, and is
 * not tried again until the next threshold: trying at every poll would hold the checkpointer
 * lock most of the time under a steady load and keep the writers' own checkpoint
 * (sqlite-checkpointer.ts `WRITER_LIMIT_FACTOR`) from running.
 */
function startOver(): void {
  restart.get();
}

/**
 * Nobody committed for `idleMs`: empties the WAL file, so that an idle database is whole in its
 * main file and the WAL's disk space goes back. TRUNCATE takes the write lock for a moment; a
 * writer that meets it retries on a timer (sqlite-connection.ts `untilNotBusy`).
 */
function emptyWhenIdle(): void {
  const result = truncate.get() as CheckpointResult;
  emptied = !result.busy;
  // Busy (a reader or writer was there): tried again after another idle period.
  lastChange = index.read()?.change ?? lastChange;
  lastChangeAt = Date.now();
}

const timer = setInterval(() => {
  try {
    poll();
  } catch (error) {
    if (!(error instanceof UnknownWalIndex)) throw error;
    report({ kind: 'unsupported', reason: error.message });
    stop();
  }
}, settings.pollMs);

function stop(): void {
  clearInterval(timer);
  // The descriptor is the process's: closing it could drop SQLite's locks (sqlite-wal-index.ts).
  connection.close();
  port.close();
}

port.on('message', (message) => {
  if (message === 'stop') stop();
});

report({ kind: 'ready' });
