import type { Database } from '../src/db/database.js';
import { randomToken } from '../src/security/random.js';
import type { SecretBox } from '../src/security/secret-box.js';
import type { BenchDatabase } from './options.js';
import { ProgressBar } from './progress.js';
import { int, pick, seedDialect, text, type SeedDialect } from './seed-sql.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Start times fall on the minutes of two years: one before the seeding instant, one after. */
const SPREAD_MINUTES = 2 * 365 * 24 * 60;
/** A prime multiplier scatters consecutive events over the two years. */
const SCATTER = 7919;
/** Events per INSERT … SELECT (each table's statement covers the same events). */
const CHUNK_EVENTS = 50_000;
/** Rows per event: the event, 2 interviewers, 1 interviewee, 3 lobby tokens. */
const ROWS_PER_EVENT = 7;

/** Whose events, and which of them: the event numbers `from` (inclusive) to `to` (exclusive). */
export interface EventRange {
  employerId: string;
  /** The app and user that created them; the user is their first interviewer. */
  creator: { appId: string; userId: string; email: string; name: string };
  /** Distinguishes this employer's generated ids from another's. */
  tag: number;
  from: number;
  to: number;
}

/** The instants the generated start times are spread around; fixed for a run. */
export interface SeedClock {
  /** Epoch ms, on a whole minute. */
  now: number;
}

export function seedClock(): SeedClock {
  return { now: Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS };
}

/** The first start time the seeding can produce; a filtered range is chosen relative to it. */
export function earliestStart(clock: SeedClock): number {
  return clock.now - 365 * DAY_MS;
}

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
      // The connection's pool holds one connection, so these stay in force.
      for (const setting of dialect.bulkLoadSettings) await db.raw(setting);
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

/** The SQL of one employer's generated rows; `n` is the event number. */
class EventRows {
  constructor(
    private readonly dialect: SeedDialect,
    private readonly range: EventRange,
    private readonly clock: SeedClock,
    private readonly sealed: Record<'landing' | 'interviewer' | 'interviewee', string>,
  ) {}

  events(chunk: { from: number; to: number }): string {
    const { employerId, creator } = this.range;
    const cancelled = this.cancelled();
    return this.dialect.insertSeries(
      'interview_events',
      [
        'id',
        'employer_id',
        'created_by_app_id',
        'created_by_user_id',
        'title',
        'start_at',
        'start_offset_minutes',
        'end_at',
        'end_offset_minutes',
        'timezone',
        'language_code',
        'country_code',
        'media_type',
        'status',
        'ats_name',
        'employer_name',
        'started_at',
        'ended_at',
        'archived_at',
        'cancelled_at',
        'created_at',
        'updated_at',
      ],
      [
        this.id(EVENT),
        text(employerId),
        text(creator.appId),
        text(creator.userId),
        `'Interview #' || n || ' - ' || ${pick('n % 6', JOB_TITLES.map(text))}`,
        this.startAt(),
        this.offsetMinutes(),
        `${this.startAt()} + (30 + (n % 3) * 15) * ${int(MINUTE_MS)}`,
        this.offsetMinutes(),
        pick('n % 4', TIME_ZONES.map(text)),
        pick('n % 3', ["'en'", "'de'", 'NULL']),
        pick('n % 3', ["'US'", "'DE'", 'NULL']),
        `CASE WHEN n % 5 = 0 THEN 'PHONE' ELSE 'VIDEO' END`,
        `CASE WHEN ${cancelled} THEN 'CANCELLED' ELSE 'SCHEDULED' END`,
        "'Bench ATS'",
        `CASE WHEN n % 2 = 0 THEN 'Bench Employer' ELSE NULL END`,
        'NULL',
        'NULL',
        'NULL',
        `CASE WHEN ${cancelled} THEN ${this.createdAt()} ELSE NULL END`,
        this.createdAt(),
        this.createdAt(),
      ],
      chunk,
    );
  }

  interviewers(chunk: { from: number; to: number }): string {
    const { creator } = this.range;
    const invited = `'interviewer-' || (n % 500) || '@example.com'`;
    return this.dialect.insertSeries(
      'interviewers',
      ['id', 'event_id', 'email', 'email_normalized', 'name', 'user_id', 'position', 'created_at'],
      [
        `CASE WHEN r.p = 0 THEN ${this.id(CREATOR_INTERVIEWER)} ELSE ${this.id(INVITED_INTERVIEWER)} END`,
        this.id(EVENT),
        `CASE WHEN r.p = 0 THEN ${text(creator.email)} ELSE ${invited} END`,
        `CASE WHEN r.p = 0 THEN ${text(creator.email.toLowerCase())} ELSE ${invited} END`,
        `CASE WHEN r.p = 0 THEN ${text(creator.name)} ELSE NULL END`,
        `CASE WHEN r.p = 0 THEN ${text(creator.userId)} ELSE NULL END`,
        'r.p',
        this.createdAt(),
      ],
      chunk,
      'CROSS JOIN (SELECT 0 AS p UNION ALL SELECT 1 AS p) AS r',
    );
  }

  interviewees(chunk: { from: number; to: number }): string {
    const employerJob = 'n % 2 = 0';
    return this.dialect.insertSeries(
      'interviewees',
      [
        'id',
        'event_id',
        'name',
        'email',
        'status',
        'job_employer_job_id',
        'job_title',
        'job_location',
        'checked_in_at',
        'created_at',
        'updated_at',
      ],
      [
        this.id(INTERVIEWEE),
        this.id(EVENT),
        `'Candidate ' || n`,
        `'candidate-' || n || '@example.com'`,
        `CASE WHEN ${this.cancelled()} THEN 'CANCELLED' ELSE 'RSVPED' END`,
        `CASE WHEN ${employerJob} THEN 'JOB-' || (n % 100) ELSE NULL END`,
        `CASE WHEN ${employerJob} THEN NULL ELSE ${pick('n % 6', JOB_TITLES.map(text))} END`,
        `CASE WHEN ${employerJob} THEN NULL ELSE 'Remote' END`,
        'NULL',
        this.createdAt(),
        this.createdAt(),
      ],
      chunk,
    );
  }

  lobbyTokens(chunk: { from: number; to: number }): string {
    const roles = ['landing', 'interviewer', 'interviewee'] as const;
    const byRole = (values: readonly string[]) => pick('r.role', values);
    return this.dialect.insertSeries(
      'lobby_tokens',
      ['id', 'event_id', 'interviewee_id', 'role', 'token_hash', 'token_encrypted', 'created_at'],
      [
        byRole(LOBBY_TOKEN_KINDS.map((kind) => this.id(kind))),
        this.id(EVENT),
        `CASE WHEN r.role = 2 THEN ${this.id(INTERVIEWEE)} ELSE NULL END`,
        byRole(roles.map(text)),
        byRole(LOBBY_TOKEN_KINDS.map((kind) => this.digest(kind))),
        byRole(roles.map((role) => text(this.sealed[role]))),
        this.createdAt(),
      ],
      chunk,
      'CROSS JOIN (SELECT 0 AS role UNION ALL SELECT 1 AS role UNION ALL SELECT 2 AS role) AS r',
    );
  }

  /** A UUID-shaped id unique to this employer, kind of row and event number. */
  private id(kind: number): string {
    return `${text(`${hex(this.range.tag, 8)}-${hex(kind, 4)}-4000-8000-`)} || ${this.dialect.hex12()}`;
  }

  /** 64 hexadecimal digits unique to this employer, kind of token and event number. */
  private digest(kind: number): string {
    return `${text(`${hex(this.range.tag, 8)}${hex(kind, 4)}`.padEnd(52, '0'))} || ${this.dialect.hex12()}`;
  }

  private startAt(): string {
    const first = earliestStart(this.clock);
    return `(${int(first)} + ((n * ${int(SCATTER)}) % ${int(SPREAD_MINUTES)}) * ${int(MINUTE_MS)})`;
  }

  /** Scheduled two weeks ahead, or at the seeding instant for the nearest ones. */
  private createdAt(): string {
    const twoWeeksBefore = `${this.startAt()} - ${int(14 * DAY_MS)}`;
    const now = int(this.clock.now);
    return `(CASE WHEN ${twoWeeksBefore} < ${now} THEN ${twoWeeksBefore} ELSE ${now} END)`;
  }

  /** Offsets that match the time zones chosen by the same `n % 4`. */
  private offsetMinutes(): string {
    return pick('n % 4', ['0', '-300', '60', '330']);
  }

  private cancelled(): string {
    return 'n % 20 = 7';
  }
}

const EVENT = 1;
const CREATOR_INTERVIEWER = 2;
const INVITED_INTERVIEWER = 3;
const INTERVIEWEE = 4;
/** The landing, interviewer and interviewee tokens, in the order of the role numbers 0, 1, 2. */
const LOBBY_TOKEN_KINDS = [5, 6, 7] as const;

const TIME_ZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata'];
const JOB_TITLES = [
  'Backend Engineer',
  'Frontend Engineer',
  'Data Analyst',
  'Product Manager',
  'Site Reliability Engineer',
  'Designer',
];

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0');
}
