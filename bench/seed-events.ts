import type { Database } from '../src/db/database.js';
import { randomToken } from '../src/security/random.js';
import type { SecretBox } from '../src/security/secret-box.js';
import type { BenchDatabase } from './options.js';
import { ProgressBar } from './progress.js';
import { seedDialect } from './seed-sql.js';
import { EventRows, ROWS_PER_EVENT, type EventRange, type SeedClock } from './seed-rows.js';

/**
 * Events per INSERT … SELECT (each table's statement covers the same events: 25k events, 50k
 * interviewers, 75k lobby tokens); small enough that a stage of 40k events still gives both
 * PostgreSQL lanes a chunk.
 */
const CHUNK_EVENTS = 25_000;

/**
 * Inserts interview events with exactly the rows the Interview API's writer stores for a new
 * event (src/interviews/event-writer.ts): the event (SCHEDULED, or CANCELLED with its interviewee
 * for one in twenty, as cancelling leaves them), its creator as interviewer 0 and one invited
 * interviewer, an interviewee (RSVPED) and the landing, interviewer and interviewee lobby tokens.
 * Only base tables are written: whatever the migrations derive from them (kept by triggers) is
 * the database's to maintain. One INSERT … SELECT per table and chunk, with a progress bar;
 * on PostgreSQL two connections insert chunks side by side (one SQLite file has one writer).
 *
 * Lobby tokens: each role's `token_encrypted` is one token sealed by the service's own box, so
 * every URL the API builds decrypts; `token_hash` is a unique generated digest, so the lobby
 * pages do not open for seeded events (nothing in the benchmark opens them).
 */
export async function seedEvents(input: {
  engine: BenchDatabase;
  /** A new connection of the harness's own (each lane of inserts gets one). */
  connect: () => Database;
  ranges: readonly EventRange[];
  lobbyTokenBox: SecretBox;
  clock: SeedClock;
}): Promise<void> {
  const { engine, ranges, lobbyTokenBox, clock } = input;
  const dialect = seedDialect(engine);
  const sealed = {
    landing: lobbyTokenBox.seal(randomToken(32)),
    interviewer: lobbyTokenBox.seal(randomToken(32)),
    interviewee: lobbyTokenBox.seal(randomToken(32)),
  };
  const chunks = ranges.flatMap((range) => {
    const rows = new EventRows(dialect, range, clock, sealed);
    const starts = Array.from(
      { length: Math.ceil((range.to - range.from) / CHUNK_EVENTS) },
      (_, index) => range.from + index * CHUNK_EVENTS,
    );
    return starts.map((from) => ({ rows, from, to: Math.min(range.to, from + CHUNK_EVENTS) }));
  });
  const total = chunks.reduce((sum, chunk) => sum + chunk.to - chunk.from, 0) * ROWS_PER_EVENT;
  const progress = new ProgressBar('seeding', total, 'rows');
  let next = 0;
  // Each lane takes the next chunk until none is left; the lanes share nothing but the tables.
  const lane = async () => {
    const db = input.connect();
    try {
      await useBulkLoadSettings(db, engine);
      for (let chunk = chunks[next++]; chunk; chunk = chunks[next++]) {
        await insertChunk(db, chunk, progress);
      }
    } finally {
      await db.destroy();
    }
  };
  await Promise.all(Array.from({ length: dialect.lanes }, lane));
  progress.finish();
}

/**
 * Turns off what a throwaway database does not need (durable commits) on a connection of the
 * harness; its pool holds one connection, so the settings stay in force.
 */
export async function useBulkLoadSettings(db: Database, engine: BenchDatabase): Promise<void> {
  for (const setting of seedDialect(engine).bulkLoadSettings) await db.raw(setting);
}

/** One chunk of events and the rows that hang from them, parents first. */
async function insertChunk(
  db: Database,
  chunk: { rows: EventRows; from: number; to: number },
  progress: ProgressBar,
): Promise<void> {
  const { rows } = chunk;
  const events = chunk.to - chunk.from;
  await db.raw(rows.events(chunk));
  progress.advance(events);
  await db.raw(rows.interviewers(chunk));
  progress.advance(2 * events);
  await db.raw(rows.interviewees(chunk));
  progress.advance(events);
  await db.raw(rows.lobbyTokens(chunk));
  progress.advance(3 * events);
}

/** Refreshes the planner's statistics of every table after a bulk load. */
export async function analyzeTables(db: Database, engine: BenchDatabase): Promise<void> {
  const tables =
    engine === 'postgres'
      ? (
          (await db.raw(
            `select table_name from information_schema.tables
             where table_schema = current_schema() and table_type = 'BASE TABLE'`,
          )) as { rows: Array<{ table_name: string }> }
        ).rows.map((row) => `"${row.table_name}"`)
      : [];
  for (const statement of seedDialect(engine).analyze(tables)) await db.raw(statement);
}
