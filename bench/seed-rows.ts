import { int, pick, text, type SeedDialect } from './seed-sql.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Start times fall on the minutes of two years: one before the seeding instant, one after. */
const SPREAD_MINUTES = 2 * 365 * 24 * 60;
/** A prime multiplier scatters consecutive events over the two years. */
const SCATTER = 7919;
/** Rows per event: the event, 2 interviewers, 1 interviewee, 3 lobby tokens. */
export const ROWS_PER_EVENT = 7;

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
 * The SQL of one employer's generated rows, one INSERT … SELECT per table over a run of event
 * numbers `n` (the rows the writer stores for a new event; see seed-events.ts).
 */
export class EventRows {
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
