import { availableParallelism } from 'node:os';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const absoluteHttpUrl = z
  .string()
  .trim()
  .refine((value) => isAbsoluteHttpUrl(value), 'must be an absolute http(s) URL')
  .transform((value) => value.replace(/\/+$/, ''));

const positiveInt = z.coerce.number().int().positive();

// ---------------------------------------------------------------------------------------------
// GraphQL gateway limits (DESIGN §4). Each bounds what one request may make the server do.
// ---------------------------------------------------------------------------------------------

export interface GraphQLLimits {
  /** Deepest nesting of fields in an operation, fragments included. */
  maxDepth: number;
  /** Most aliased fields in an operation. */
  maxAliases: number;
  /** Most lexical tokens in a document; the parser stops past it. */
  maxTokens: number;
  /** Largest number of objects an operation's response may hold (src/graphql/limits/cost-model.ts). */
  maxCost: number;
  /** Parsed and validated documents kept by query text; 0 turns the cache off. */
  documentCacheSize: number;
  /**
   * Most objects one answer may really hold, counted while it executes
   * (src/graphql/limits/answer-size.ts): what bounds a worker's heap, whatever the estimate.
   */
  maxResponseNodes: number;
  /** Largest answer in bytes (estimated while it executes). */
  maxResponseBytes: number;
  /**
   * Queries sent repeatedly run as compiled by graphql-jit (src/graphql/compiled-execution.ts);
   * false: graphql-js runs everything (OpenTelemetry's GraphQL spans come from graphql-js only).
   */
  compiledQueries: boolean;
  /** Executions of a query operation by graphql-js before it is compiled; 0: at its first. */
  compileAfterExecutions: number;
  /** Compiled queries a process keeps; past it the least recently used is dropped. */
  compiledQueriesMax: number;
}

export const DEFAULT_GRAPHQL_LIMITS: Readonly<GraphQLLimits> = {
  // The deepest path through the schema (schema/*.graphql) that visits no type twice:
  // findVirtualInterviewEvents, edges, node, intervieweesConnection, edges, node,
  // interviewRecordsConnection, edges, node, interviewOutcomesConnection, edges, node,
  // interviewer, id.
  maxDepth: 14,
  maxAliases: 30,
  maxTokens: 2000,
  // Lets through a page of 100 events with every nested list (158,601), or a page of 6 with every
  // field of the schema selected through both edges and lists (about 172,000).
  maxCost: 200_000,
  documentCacheSize: 1000,
  // Measured on the production default (workers with WORKER_MAX_OLD_SPACE_MB=160): one answer
  // of about 110,000 objects (12 MB), or two of 30 MB at once, exhausted a worker's heap, while
  // two answers of 63,000 objects (7 MB) each per worker at once did not. These leave room for
  // a few large answers at once; the cost limit above still admits what could be larger, and
  // only an answer that really grows past these is refused. Three at once on one worker (a
  // cluster may hand three of four concurrent connections to the same worker) must stay under
  // the fatal 110,000 objects with the heap the service's capabilities now take at rest: at
  // 50,000 each, four answers at once over two workers ended one worker (a CI run).
  maxResponseNodes: 35_000,
  maxResponseBytes: 6 * 1024 * 1024,
  compiledQueries: true,
  compileAfterExecutions: 10,
  // A compiled query holds about as much as its parsed document again (25 kB for the P2
  // document, 70 kB for one that selects every field): 200 of them stay under 15 MB.
  compiledQueriesMax: 200,
};

const nonNegativeInt = z.coerce.number().int().min(0);

const graphqlLimitVariables = {
  GRAPHQL_MAX_DEPTH: positiveInt.default(DEFAULT_GRAPHQL_LIMITS.maxDepth),
  GRAPHQL_MAX_ALIASES: nonNegativeInt.default(DEFAULT_GRAPHQL_LIMITS.maxAliases),
  GRAPHQL_MAX_TOKENS: positiveInt.default(DEFAULT_GRAPHQL_LIMITS.maxTokens),
  GRAPHQL_MAX_COST: positiveInt.default(DEFAULT_GRAPHQL_LIMITS.maxCost),
  GRAPHQL_DOCUMENT_CACHE_SIZE: nonNegativeInt.default(DEFAULT_GRAPHQL_LIMITS.documentCacheSize),
  GRAPHQL_MAX_RESPONSE_NODES: positiveInt.default(DEFAULT_GRAPHQL_LIMITS.maxResponseNodes),
  GRAPHQL_MAX_RESPONSE_BYTES: positiveInt.default(DEFAULT_GRAPHQL_LIMITS.maxResponseBytes),
  GRAPHQL_COMPILED_QUERIES: z
    .enum(['on', 'off'])
    .default('on')
    .transform((value) => value === 'on'),
  GRAPHQL_COMPILE_AFTER_EXECUTIONS: nonNegativeInt.default(
    DEFAULT_GRAPHQL_LIMITS.compileAfterExecutions,
  ),
  GRAPHQL_COMPILED_QUERIES_MAX: positiveInt
    .max(100_000)
    .default(DEFAULT_GRAPHQL_LIMITS.compiledQueriesMax),
};

// ---------------------------------------------------------------------------------------------
// Persisted GraphQL documents (DESIGN §9, src/graphql/persisted/).
// ---------------------------------------------------------------------------------------------

export interface PersistedDocumentSettings {
  /** Only persisted documents run: a request with a document's text is refused. */
  only: boolean;
  /**
   * Documents the database keeps, each at most BODY_LIMIT_BYTES: automatic ones (APQ) are
   * evicted oldest first to make room, registered ones never.
   */
  maxDocuments: number;
}

export const DEFAULT_PERSISTED_DOCUMENTS_MAX = 5000;

const persistedDocumentVariables = {
  GRAPHQL_PERSISTED_ONLY: z
    .enum(['on', 'off'])
    .default('off')
    .transform((value) => value === 'on'),
  GRAPHQL_PERSISTED_DOCUMENTS_MAX: positiveInt
    .max(1_000_000)
    .default(DEFAULT_PERSISTED_DOCUMENTS_MAX),
};

// ---------------------------------------------------------------------------------------------
// Time-driven interview transitions (DESIGN §5). Reads settle them by the clock at once; the
// sweeper stores them every SWEEP_INTERVAL_MS.
// ---------------------------------------------------------------------------------------------

export const DEFAULT_ARCHIVE_AFTER_DAYS = 30;
export const DEFAULT_SWEEP_INTERVAL_MS = 30_000;
/** The longest delay setTimeout honours; a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

const sweeperVariables = {
  SWEEP_INTERVAL_MS: nonNegativeInt.max(MAX_TIMER_MS).default(DEFAULT_SWEEP_INTERVAL_MS),
};

// ---------------------------------------------------------------------------------------------
// Partner console (README "Configuration").
// ---------------------------------------------------------------------------------------------

export type ConsoleSignUp = 'open' | 'closed';

const consoleVariables = {
  /** `closed` turns self-service sign-up off; accounts are then created with the CLI. */
  CONSOLE_SIGN_UP: z.enum(['open', 'closed']).default('open'),
  /** `enabled` lets `cli token issue` mint sandbox tokens when NODE_ENV=production. */
  CLI_SANDBOX_TOKENS: z.enum(['enabled', 'disabled']).default('disabled'),
};

// ---------------------------------------------------------------------------------------------
// Signing key rotation (DESIGN §3).
// ---------------------------------------------------------------------------------------------

/**
 * A rotated key is published this long before it signs, so that no client meets its `kid`
 * before it could fetch it. A JWKS answer may be 30 s stale (each process rereads the keys every
 * 30 s), a cache may keep that answer 30 s more (its Cache-Control), and jose and openid-client
 * refetch at most every 30 s; the remaining 30 s are margin for clock skew between processes.
 */
export const DEFAULT_SIGNING_KEY_ACTIVATION_DELAY_SECONDS = 120;

const signingKeyVariables = {
  // A day at most: a value meant as milliseconds would otherwise postpone a rotation by days.
  SIGNING_KEY_ACTIVATION_DELAY_SECONDS: nonNegativeInt
    .max(24 * 60 * 60)
    .default(DEFAULT_SIGNING_KEY_ACTIVATION_DELAY_SECONDS),
};

// ---------------------------------------------------------------------------------------------
// Metrics and cluster workers (docs/observability.md).
// ---------------------------------------------------------------------------------------------

const observabilityVariables = {
  /** Serves /metrics on the service port to `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Serves /metrics without a token on a port of its own, bound to METRICS_HOST. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  WORKERS: positiveInt.max(256).optional(),
  WORKER_MAX_OLD_SPACE_MB: z.coerce.number().int().min(64).max(65_536).default(160),
};

// ---------------------------------------------------------------------------------------------
// The interview room, live updates and recordings (README "Interview pages").
// ---------------------------------------------------------------------------------------------

/** One RTCIceServer as the browser takes it: `urls` plus optional TURN credentials. */
const iceServer = z
  .object({
    urls: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    username: z.string().optional(),
    credential: z.string().optional(),
  })
  .strict();

const iceServers = z
  .string()
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
  })
  .pipe(z.array(iceServer, { error: 'must be a JSON array of RTCIceServer objects' }));

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/**
 * What one process holds for the live connections of the interview pages (docs/realtime.md,
 * "Bounds"): what may wait to be sent to one browser, and how many connections one event, one
 * participant and one address may have open.
 */
export interface LiveConnectionLimits {
  /** A connection with more than this waiting to be sent is closed (it stopped reading). */
  sendBufferMaxBytes: number;
  perEvent: number;
  /** Per interviewer identity or interviewee link, of one event. */
  perParticipant: number;
  /** Per client address (X-Forwarded-For's first entry when TRUST_PROXY=true), of any events. */
  perAddress: number;
}

export const DEFAULT_LIVE_CONNECTION_LIMITS: Readonly<LiveConnectionLimits> = {
  // Far above what signalling needs (an SDP offer is a few KiB), far below a worker's heap.
  sendBufferMaxBytes: 4 * 1024 * 1024,
  perEvent: 100,
  // A person's lobby page and room page in a few tabs each.
  perParticipant: 8,
  // An office behind one NAT, several interviews at once.
  perAddress: 32,
};

/** In flight on the realtime bus from one process (or relayed to one worker), at most. */
export const DEFAULT_REALTIME_BACKLOG_MAX_BYTES = 16 * 1024 * 1024;

const liveConnectionVariables = {
  // Room for the largest message (a 64 KiB signal) with margin.
  LIVE_SEND_BUFFER_MAX_BYTES: positiveInt
    .min(256 * 1024)
    .default(DEFAULT_LIVE_CONNECTION_LIMITS.sendBufferMaxBytes),
  LIVE_CONNECTIONS_PER_EVENT: positiveInt.default(DEFAULT_LIVE_CONNECTION_LIMITS.perEvent),
  LIVE_CONNECTIONS_PER_PARTICIPANT: positiveInt.default(
    DEFAULT_LIVE_CONNECTION_LIMITS.perParticipant,
  ),
  LIVE_CONNECTIONS_PER_ADDRESS: positiveInt.default(DEFAULT_LIVE_CONNECTION_LIMITS.perAddress),
  REALTIME_BACKLOG_MAX_BYTES: positiveInt
    .min(64 * 1024)
    .default(DEFAULT_REALTIME_BACKLOG_MAX_BYTES),
};

const roomVariables = {
  /** Redis pub/sub for live updates and signalling between processes, instead of LISTEN/NOTIFY. */
  REDIS_URL: z
    .string()
    .trim()
    .refine((value) => /^rediss?:\/\//.test(value), 'must start with redis:// or rediss://')
    .optional(),
  ICE_SERVERS: iceServers.optional(),
  ROOM_MAX_VIDEO_PARTICIPANTS: positiveInt.max(16).default(5),
  ROOM_EMPTY_GRACE_SECONDS: positiveInt.max(24 * 60 * 60).default(120),
  RECORDINGS_DIR: z.string().min(1).default('./data/recordings'),
  RECORDING_MAX_BYTES: positiveInt.default(2 * 1024 * 1024 * 1024),
  RECORDING_CHUNK_MAX_BYTES: positiveInt.default(16 * 1024 * 1024),
  /** Chunks one recording may have (a row each); the room sends one every 2 s: about 27 hours. */
  RECORDING_MAX_CHUNKS: positiveInt.default(50_000),
  /** Seconds after which a chunk's claim whose request never finished (its process died) lapses. */
  RECORDING_CHUNK_CLAIM_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  /** Days a recording is kept after its event is archived; 0 deletes it at archiving. */
  RECORDINGS_KEEP_DAYS_AFTER_ARCHIVE: nonNegativeInt.max(36_500).default(0),
  ...liveConnectionVariables,
};

// ---------------------------------------------------------------------------------------------
// Webhooks (DESIGN §8, README "Webhooks").
// ---------------------------------------------------------------------------------------------

/** DESIGN §8's retry schedule: the pause before each retry after the first attempt. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';

const DURATION_UNITS_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** `5s,5m,2h`: pauses with a unit each (ms, s, m, h, d), 1 to 20 of them, each at most 7 days. */
const retrySchedule = z
  .string()
  .trim()
  .transform((value, context) => {
    const pauses = value.split(',').map((part) => {
      const match = /^(\d+)(ms|s|m|h|d)$/.exec(part.trim());
      return match ? Number(match[1]) * DURATION_UNITS_MS[match[2]!]! : Number.NaN;
    });
    const valid =
      pauses.length >= 1 &&
      pauses.length <= 20 &&
      pauses.every((pause) => Number.isFinite(pause) && pause > 0 && pause <= 7 * 86_400_000);
    if (!valid) {
      context.addIssue({
        code: z.ZodIssueCode.custom,
        message: 'must be 1 to 20 comma-separated pauses such as 5s,5m,2h (each ≤ 7d)',
      });
      return z.NEVER;
    }
    return pauses;
  });

const webhookVariables = {
  /** Lifts the https-only and public-address rules of production (development and tests). */
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  WEBHOOK_RETRY_SCHEDULE: retrySchedule.prefault(DEFAULT_WEBHOOK_RETRY_SCHEDULE),
  WEBHOOK_TIMEOUT_MS: positiveInt.max(60_000).default(15_000),
  /** An endpoint that failed every attempt for this long is disabled and its owner told. */
  WEBHOOK_DISABLE_AFTER_HOURS: positiveInt.max(24 * 365).default(5 * 24),
  /** The longest wait a Retry-After answer (429, 503) may impose before the next attempt. */
  WEBHOOK_RETRY_AFTER_MAX_SECONDS: positiveInt.max(7 * 24 * 3600).default(24 * 3600),
  /** How long both the old and the new secret sign after a rotation. */
  WEBHOOK_SECRET_OVERLAP_HOURS: nonNegativeInt.max(24 * 30).default(24),
  WEBHOOK_ENDPOINTS_PER_APP: positiveInt.max(1000).default(20),
  /** The widest `jobSearch` radius, in miles (the kilometre limit is the same distance). */
  JOB_SEARCH_MAX_RADIUS_MILES: positiveInt.max(200).default(100),
  /** Batches one `jobSearch` page reads from the index at most before it answers what it has. */
  JOB_SEARCH_BATCHES_PER_PAGE: positiveInt.max(1000).default(20),
  /** Employers one endpoint's filter may name (the filter is matched on every change). */
  WEBHOOK_EMPLOYERS_PER_ENDPOINT: positiveInt.max(1000).default(50),
  /** Days delivered and failed deliveries (and their attempts) are kept. */
  WEBHOOK_RETENTION_DAYS: positiveInt.max(3650).default(30),
  /** Requests one process has in flight to endpoints at once, and to any one endpoint. */
  WEBHOOK_CONCURRENCY: positiveInt.max(1000).default(64),
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: positiveInt.max(100).default(8),
  /** How often a process looks for due deliveries it was not told about (others' commits). */
  WEBHOOK_POLL_MS: positiveInt.max(60_000).default(1000),
  /** How often a delivering process reads the queue for the /metrics gauges. */
  WEBHOOK_QUEUE_READ_MS: positiveInt.max(300_000).default(5000),
  /** `off`: this process delivers nothing (others sharing the database do). */
  WEBHOOK_DELIVERY_WORKER: z
    .enum(['on', 'off'])
    .default('on')
    .transform((value) => value === 'on'),
};

// ---------------------------------------------------------------------------------------------
// The GraphQL gateway's rolling cost budget per client (DESIGN §9, src/cost-budgets/).
// ---------------------------------------------------------------------------------------------

/** Cost units (objects, src/graphql/limits/cost-model.ts) a client may spend per window. */
export interface CostBudgetSettings {
  /** False (GRAPHQL_COST_BUDGETS=off): nothing is charged or refused; answers still say their cost. */
  enabled: boolean;
  /** Units per window of an app that has no budget of its own (console, `cli app budget`). */
  defaultUnits: number;
  /** The rolling window: each charge counts against the budget for this long. */
  windowMs: number;
}

export const DEFAULT_COST_BUDGET_UNITS = 1_000_000;

const costBudgetVariables = {
  GRAPHQL_COST_BUDGETS: z
    .enum(['on', 'off'])
    .default('on')
    .transform((value) => value === 'on'),
  GRAPHQL_COST_BUDGET: positiveInt.max(2_000_000_000).default(DEFAULT_COST_BUDGET_UNITS),
  GRAPHQL_COST_BUDGET_WINDOW_SECONDS: positiveInt.max(3600).default(60),
};

// ---------------------------------------------------------------------------------------------
// Email (README "Email"): verification and password-reset links.
// ---------------------------------------------------------------------------------------------

export const DEFAULT_MAIL_FROM = 'Hiring partner <no-reply@localhost>';

const mailVariables = {
  /** `smtp://user:pass@host:port` or `smtps://…`; unset: mail goes to the log (and dev outbox). */
  SMTP_URL: z
    .string()
    .trim()
    .refine((value) => isSmtpUrl(value), 'must be an smtp:// or smtps:// URL with a host')
    .optional(),
  MAIL_FROM: z.string().trim().min(1).max(320).default(DEFAULT_MAIL_FROM),
};

// ---------------------------------------------------------------------------------------------
// Calendar mails of interviews (README "Calendar mails"): invitations, updates, cancellations
// and reminders to each participant.
// ---------------------------------------------------------------------------------------------

export const DEFAULT_CALENDAR_REMINDERS = '24h,1h';
export const DEFAULT_CALENDAR_RETRY_SCHEDULE = '1m,5m,30m,2h,6h';

/** `24h,1h`: how long before the start each reminder goes (m, h, d; at most 30 days), or `none`. */
const reminderOffsets = z
  .string()
  .trim()
  .transform((value, context) => {
    if (value === 'none') return [];
    const offsets = value.split(',').map((part) => {
      const match = /^(\d+)(m|h|d)$/.exec(part.trim());
      return match ? Number(match[1]) * DURATION_UNITS_MS[match[2]!]! : Number.NaN;
    });
    const valid =
      offsets.length <= 5 &&
      new Set(offsets).size === offsets.length &&
      offsets.every((offset) => Number.isFinite(offset) && offset > 0 && offset <= 30 * 86_400_000);
    if (!valid) {
      context.addIssue({
        code: z.ZodIssueCode.custom,
        message: 'must be none or 1 to 5 different offsets such as 24h,1h (m, h, d; each ≤ 30d)',
      });
      return z.NEVER;
    }
    return offsets.sort((a, b) => b - a);
  });

const calendarMailVariables = {
  /** `off`: no calendar mail is written (nor sent) for any app. */
  CALENDAR_MAILS: z
    .enum(['on', 'off'])
    .default('on')
    .transform((value) => value === 'on'),
  CALENDAR_REMINDERS: reminderOffsets.prefault(DEFAULT_CALENDAR_REMINDERS),
  /** Pauses between attempts to hand a mail to SMTP; after the last it is given up. */
  CALENDAR_MAIL_RETRY_SCHEDULE: retrySchedule.prefault(DEFAULT_CALENDAR_RETRY_SCHEDULE),
  /** How often a process looks for due calendar mails it was not told about (reminders). */
  CALENDAR_MAIL_POLL_MS: positiveInt.max(600_000).default(5000),
  /** `off`: this process sends no calendar mail (others sharing the database do). */
  CALENDAR_MAIL_SENDER: z
    .enum(['on', 'off'])
    .default('on')
    .transform((value) => value === 'on'),
};

// ---------------------------------------------------------------------------------------------
// Job Sync (src/job-sync, docs/jobs-apis.md).
// ---------------------------------------------------------------------------------------------

const jobSyncVariables = {
  /** How long a created or reactivated posting is PENDING before it is ACTIVE. */
  JOB_SYNC_INDEXING_DELAY_MS: nonNegativeInt.max(7 * 24 * 3600 * 1000).default(60_000),
  /**
   * The largest body of a request whose operations are all Job Sync changes (100 postings with
   * long descriptions); every other request keeps BODY_LIMIT_BYTES.
   */
  JOB_SYNC_BODY_LIMIT_BYTES: positiveInt.max(64 * 1024 * 1024).default(8 * 1024 * 1024),
  /** Bytes of such large bodies one process holds at once; past it, 503 with Retry-After. */
  JOB_SYNC_BODY_BUDGET_BYTES: positiveInt.max(1024 * 1024 * 1024).default(64 * 1024 * 1024),
};

// ---------------------------------------------------------------------------------------------
// Disposition Sync (src/disposition-sync, docs/jobs-apis.md).
// ---------------------------------------------------------------------------------------------

const dispositionSyncVariables = {
  /** Days a disposition is kept after it was received; older ones are purged in every process. */
  DISPOSITION_RETENTION_DAYS: positiveInt.max(3650).default(365),
};

// ---------------------------------------------------------------------------------------------
// The database (DESIGN §7).
// ---------------------------------------------------------------------------------------------

/**
 * Runs again of work the engine undid because of concurrent work. PostgreSQL reports a deadlock
 * after `deadlock_timeout` (1 s) and SQLite a busy database after its 5 s busy timeout, so a few
 * are worth it; more would only hold the request longer.
 */
export const DEFAULT_DATABASE_RETRIES = 3;

// ---------------------------------------------------------------------------------------------

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  /** Unset: every interface in production, only this machine's loopback otherwise. */
  HOST: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  AUTH_URL: absoluteHttpUrl.optional(),
  API_URL: absoluteHttpUrl.optional(),
  PUBLIC_URL: absoluteHttpUrl.optional(),
  DATABASE_URL: z
    .string()
    .trim()
    .refine(
      (value) => /^postgres(ql)?:\/\//.test(value),
      'must start with postgres:// or postgresql://',
    )
    .optional(),
  SQLITE_PATH: z.string().min(1).default('./data/service.sqlite'),
  SQLITE_SYNCHRONOUS: z.enum(['NORMAL', 'FULL']).default('NORMAL'),
  SQLITE_READ_CONNECTIONS: nonNegativeInt.max(64).default(1),
  SQLITE_CHECKPOINT_PAGES: nonNegativeInt.max(1_000_000).default(1000),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
    .optional(),
  DATABASE_POOL_MAX: positiveInt.default(10),
  DATABASE_RETRIES: nonNegativeInt.max(10).default(DEFAULT_DATABASE_RETRIES),
  KEY_ENCRYPTION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  BODY_LIMIT_BYTES: positiveInt.default(100 * 1024),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  ARCHIVE_AFTER_DAYS: positiveInt.default(DEFAULT_ARCHIVE_AFTER_DAYS),
  RATE_LIMIT_SIGN_IN_MAX: positiveInt.default(10),
  RATE_LIMIT_SIGN_IN_WINDOW_SECONDS: positiveInt.default(15 * 60),
  RATE_LIMIT_TOKEN_MAX: positiveInt.default(300),
  RATE_LIMIT_TOKEN_WINDOW_SECONDS: positiveInt.default(60),
  TOKEN_VERIFICATION_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(2000),
  ...graphqlLimitVariables,
  ...persistedDocumentVariables,
  ...costBudgetVariables,
  ...sweeperVariables,
  ...consoleVariables,
  ...signingKeyVariables,
  ...observabilityVariables,
  ...roomVariables,
  ...webhookVariables,
  ...mailVariables,
  ...calendarMailVariables,
  ...jobSyncVariables,
  ...dispositionSyncVariables,
});

export type DatabaseConfig = (
  | {
      client: 'sqlite';
      filename: string;
      /** `NORMAL` (default) survives a killed process; `FULL` also an OS crash or power loss. */
      synchronous?: 'NORMAL' | 'FULL';
      /**
       * Whether reads outside transactions get a read-only connection beside the writer (any
       * number above 0: the one connection they share, sqlite-readers.ts); 0: none.
       */
      readConnections?: number;
      /**
       * WAL pages past which a thread of its own checkpoints, off the event loop
       * (src/db/dialects/sqlite-checkpointer.ts); 0: SQLite's automatic checkpoint inside the
       * writer's COMMIT. Unset: 1000.
       */
      checkpointPages?: number;
    }
  | { client: 'postgres'; connectionString: string; poolMax: number; searchPath?: string }
) & {
  /**
   * How many more times a transaction or statement is run when the engine undid it because of
   * concurrent work (a deadlock, a serialization failure, a busy database) before the request is
   * answered 503; src/db/transactions.ts. Unset: DEFAULT_DATABASE_RETRIES.
   */
  retries?: number;
};

/** The bounds of one `jobSearch` (src/job-search/). */
export interface JobSearchSettings {
  /** The widest radius, in miles; in kilometres the same distance, rounded down. */
  maxRadiusMiles: number;
  /**
   * Batches of index rows one page reads at most: past it the page answers the results it has
   * and a cursor from where it stopped.
   */
  batchesPerPage: number;
}

export interface Config {
  env: 'development' | 'test' | 'production';
  host: string;
  port: number;
  /** Issuer and base of the user-facing authorization pages. */
  authUrl: string;
  /** Base of the token endpoint and the GraphQL gateway. */
  apiUrl: string;
  /** Base of lobby and landing pages handed to interviewees and interviewers. */
  publicUrl: string;
  database: DatabaseConfig;
  /** Undefined only outside production; see resolveKeyEncryptionSecret in main.ts. */
  keyEncryptionSecret: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  trustProxy: boolean;
  archiveAfterDays: number;
  /** Milliseconds between two sweeps of time-driven interview transitions; 0 disables them. */
  sweepIntervalMs: number;
  rateLimits: {
    /** Failed sign-ins allowed per client IP and email within the window. */
    signIn: RateLimit;
    /** Token endpoint requests allowed per client address and client id within the window. */
    token: RateLimit;
  };
  /** How long a verified access token is trusted without a revocation check (0 disables). */
  tokenVerificationCacheMs: number;
  /** Abuse limits and document cache of the GraphQL gateway. */
  graphql: GraphQLLimits;
  /** Documents GraphQL requests may name by hash, and whether only those run. */
  persistedDocuments: PersistedDocumentSettings;
  /** The gateway's rolling cost budget per client. */
  costBudgets: CostBudgetSettings;
  /** Whether anyone may create an account on the partner console's sign-up page. */
  consoleSignUp: ConsoleSignUp;
  /**
   * Whether `cli token issue` may mint sandbox tokens in production; outside production it
   * always may.
   */
  cliSandboxTokens: 'enabled' | 'disabled';
  /** How long a rotated signing key is published before it signs. */
  signingKeyActivationDelayMs: number;
  /** Where /metrics is served; neither `token` nor `port` set turns metrics off. */
  metrics: { token?: string; port?: number; host: string };
  /**
   * Processes serving the port (node:cluster workers). In production they always run under a
   * cluster primary that replaces a worker that dies; elsewhere 1 runs no cluster.
   */
  workers: number;
  /** V8 old-space limit of each worker, in MiB: bounds a worker's memory under load. */
  workerMaxOldSpaceMb: number;
  /** Redis pub/sub between processes (live updates, signalling); unset: the database's own. */
  redisUrl?: string;
  /** Bytes a process may have in flight on the realtime bus; past it, messages are dropped. */
  realtimeBacklogMaxBytes: number;
  room: {
    /** Bounds on the live connections of the interview pages, per process. */
    live: LiveConnectionLimits;
    /** STUN/TURN servers handed to browsers; none are needed on one network. */
    iceServers: IceServer[];
    /** Participants that may send video at once; more join with audio only. */
    maxVideoParticipants: number;
    /** How long a started interview's room may stay empty before the interview ends. */
    emptyGraceMs: number;
  };
  recordings: {
    dir: string;
    maxBytes: number;
    chunkMaxBytes: number;
    maxChunks: number;
    /** A chunk's claim lapses after this long; a writer gives it up at half of it. */
    chunkClaimMs: number;
    /** Kept this long after the event is archived; 0: deleted when it is archived. */
    keepAfterArchiveMs: number;
  };
  webhooks: WebhookSettings;
  jobSearch: JobSearchSettings;
  mail: {
    /** Where mail is sent; unset: logged (outside production also kept in the dev outbox). */
    smtpUrl?: string;
    /** The From header of every mail. */
    from: string;
  };
  calendarMail: CalendarMailSettings;
  jobSync: JobSyncSettings;
  dispositionSync: DispositionSyncSettings;
}

export interface DispositionSyncSettings {
  /** DISPOSITION_RETENTION_DAYS: a disposition received longer ago than this is purged. */
  retentionMs: number;
}

export interface JobSyncSettings {
  /** JOB_SYNC_INDEXING_DELAY_MS: PENDING this long after a creation or a reactivation. */
  indexingDelayMs: number;
  /** JOB_SYNC_BODY_LIMIT_BYTES: the body limit of requests of Job Sync changes only. */
  bodyLimitBytes: number;
  /** JOB_SYNC_BODY_BUDGET_BYTES: such bodies' bytes in flight in one process at most. */
  bodyBudgetBytes: number;
}

export interface CalendarMailSettings {
  /** CALENDAR_MAILS: whether calendar mails are written at all (each app may turn them off too). */
  enabled: boolean;
  /** How long before an interview's start each reminder goes, longest first; none: []. */
  remindersBeforeMs: number[];
  /** Pause before each retry of a mail SMTP refused; after the last, the mail has failed. */
  retryScheduleMs: number[];
  pollMs: number;
  /** Whether this process sends calendar mails (CALENDAR_MAIL_SENDER). */
  sender: boolean;
}

export interface WebhookSettings {
  /** False in production unless WEBHOOKS_ALLOW_PRIVATE_NETWORKS: https and public addresses only. */
  allowPrivateNetworks: boolean;
  /** Pause before each retry, in milliseconds; after the last, the delivery has failed. */
  retryScheduleMs: number[];
  timeoutMs: number;
  disableAfterMs: number;
  retryAfterMaxMs: number;
  secretOverlapMs: number;
  endpointsPerApp: number;
  employersPerEndpoint: number;
  retentionMs: number;
  concurrency: number;
  concurrencyPerEndpoint: number;
  pollMs: number;
  /** How often a delivering process reads the queue's depth and age for /metrics. */
  queueReadMs: number;
  /** Whether this process runs a delivery worker (WEBHOOK_DELIVERY_WORKER). */
  deliveryWorker: boolean;
}

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates configuration from environment variables. Fails fast with a message that
 * names every bad variable, so a misconfigured deployment never half-starts.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(pickKnown(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)';
      const given = env[name];
      return `${name}: ${issue.message}${given === undefined ? '' : ` (got ${describe(name, given)})`}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.KEY_ENCRYPTION_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  KEY_ENCRYPTION_SECRET: required when NODE_ENV=production',
    );
  }
  const authUrl = e.AUTH_URL ?? `http://localhost:${e.PORT}`;
  return {
    env: e.NODE_ENV,
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    port: e.PORT,
    authUrl,
    apiUrl: e.API_URL ?? authUrl,
    publicUrl: e.PUBLIC_URL ?? authUrl,
    database: e.DATABASE_URL
      ? {
          client: 'postgres',
          connectionString: e.DATABASE_URL,
          poolMax: e.DATABASE_POOL_MAX,
          searchPath: e.DATABASE_SCHEMA,
          retries: e.DATABASE_RETRIES,
        }
      : {
          client: 'sqlite',
          filename: e.SQLITE_PATH,
          synchronous: e.SQLITE_SYNCHRONOUS,
          readConnections: e.SQLITE_READ_CONNECTIONS,
          checkpointPages: e.SQLITE_CHECKPOINT_PAGES,
          retries: e.DATABASE_RETRIES,
        },
    keyEncryptionSecret: e.KEY_ENCRYPTION_SECRET,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    trustProxy: e.TRUST_PROXY,
    archiveAfterDays: e.ARCHIVE_AFTER_DAYS,
    sweepIntervalMs: e.SWEEP_INTERVAL_MS,
    rateLimits: {
      signIn: { max: e.RATE_LIMIT_SIGN_IN_MAX, windowSeconds: e.RATE_LIMIT_SIGN_IN_WINDOW_SECONDS },
      token: { max: e.RATE_LIMIT_TOKEN_MAX, windowSeconds: e.RATE_LIMIT_TOKEN_WINDOW_SECONDS },
    },
    tokenVerificationCacheMs: e.TOKEN_VERIFICATION_CACHE_MS,
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxCost: e.GRAPHQL_MAX_COST,
      documentCacheSize: e.GRAPHQL_DOCUMENT_CACHE_SIZE,
      maxResponseNodes: e.GRAPHQL_MAX_RESPONSE_NODES,
      maxResponseBytes: e.GRAPHQL_MAX_RESPONSE_BYTES,
      compiledQueries: e.GRAPHQL_COMPILED_QUERIES,
      compileAfterExecutions: e.GRAPHQL_COMPILE_AFTER_EXECUTIONS,
      compiledQueriesMax: e.GRAPHQL_COMPILED_QUERIES_MAX,
    },
    persistedDocuments: {
      only: e.GRAPHQL_PERSISTED_ONLY,
      maxDocuments: e.GRAPHQL_PERSISTED_DOCUMENTS_MAX,
    },
    costBudgets: {
      enabled: e.GRAPHQL_COST_BUDGETS,
      defaultUnits: e.GRAPHQL_COST_BUDGET,
      windowMs: e.GRAPHQL_COST_BUDGET_WINDOW_SECONDS * 1000,
    },
    consoleSignUp: e.CONSOLE_SIGN_UP,
    cliSandboxTokens: e.CLI_SANDBOX_TOKENS,
    signingKeyActivationDelayMs: e.SIGNING_KEY_ACTIVATION_DELAY_SECONDS * 1000,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    workers: e.WORKERS ?? (e.NODE_ENV === 'production' ? availableParallelism() : 1),
    workerMaxOldSpaceMb: e.WORKER_MAX_OLD_SPACE_MB,
    redisUrl: e.REDIS_URL,
    realtimeBacklogMaxBytes: e.REALTIME_BACKLOG_MAX_BYTES,
    room: {
      live: {
        sendBufferMaxBytes: e.LIVE_SEND_BUFFER_MAX_BYTES,
        perEvent: e.LIVE_CONNECTIONS_PER_EVENT,
        perParticipant: e.LIVE_CONNECTIONS_PER_PARTICIPANT,
        perAddress: e.LIVE_CONNECTIONS_PER_ADDRESS,
      },
      iceServers: e.ICE_SERVERS ?? [],
      maxVideoParticipants: e.ROOM_MAX_VIDEO_PARTICIPANTS,
      emptyGraceMs: e.ROOM_EMPTY_GRACE_SECONDS * 1000,
    },
    recordings: {
      dir: e.RECORDINGS_DIR,
      maxBytes: e.RECORDING_MAX_BYTES,
      maxChunks: e.RECORDING_MAX_CHUNKS,
      chunkMaxBytes: e.RECORDING_CHUNK_MAX_BYTES,
      chunkClaimMs: e.RECORDING_CHUNK_CLAIM_SECONDS * 1000,
      keepAfterArchiveMs: e.RECORDINGS_KEEP_DAYS_AFTER_ARCHIVE * 24 * 60 * 60 * 1000,
    },
    webhooks: {
      allowPrivateNetworks: e.NODE_ENV !== 'production' || e.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      disableAfterMs: e.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
      retryAfterMaxMs: e.WEBHOOK_RETRY_AFTER_MAX_SECONDS * 1000,
      secretOverlapMs: e.WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000,
      endpointsPerApp: e.WEBHOOK_ENDPOINTS_PER_APP,
      employersPerEndpoint: e.WEBHOOK_EMPLOYERS_PER_ENDPOINT,
      retentionMs: e.WEBHOOK_RETENTION_DAYS * 86_400_000,
      concurrency: e.WEBHOOK_CONCURRENCY,
      concurrencyPerEndpoint: e.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
      pollMs: e.WEBHOOK_POLL_MS,
      queueReadMs: e.WEBHOOK_QUEUE_READ_MS,
      deliveryWorker: e.WEBHOOK_DELIVERY_WORKER,
    },
    jobSearch: {
      maxRadiusMiles: e.JOB_SEARCH_MAX_RADIUS_MILES,
      batchesPerPage: e.JOB_SEARCH_BATCHES_PER_PAGE,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    calendarMail: {
      enabled: e.CALENDAR_MAILS,
      remindersBeforeMs: e.CALENDAR_REMINDERS,
      retryScheduleMs: e.CALENDAR_MAIL_RETRY_SCHEDULE,
      pollMs: e.CALENDAR_MAIL_POLL_MS,
      sender: e.CALENDAR_MAIL_SENDER,
    },
    jobSync: {
      indexingDelayMs: e.JOB_SYNC_INDEXING_DELAY_MS,
      bodyLimitBytes: Math.max(e.JOB_SYNC_BODY_LIMIT_BYTES, e.BODY_LIMIT_BYTES),
      bodyBudgetBytes: e.JOB_SYNC_BODY_BUDGET_BYTES,
    },
    dispositionSync: { retentionMs: e.DISPOSITION_RETENTION_DAYS * 86_400_000 },
  };
}

function pickKnown(env: NodeJS.ProcessEnv): Record<string, string> {
  const known: Record<string, string> = {};
  for (const key of Object.keys(environmentSchema.shape)) {
    const value = env[key];
    // An empty variable means "not set", as shells and .env files commonly produce them.
    if (value !== undefined && value !== '') known[key] = value;
  }
  return known;
}

/** Echo a bad value back to help the operator, except where it could be a secret. */
function describe(name: string, value: string): string {
  if (name === 'KEY_ENCRYPTION_SECRET' || name === 'METRICS_TOKEN' || name === 'ICE_SERVERS') {
    return `${value.length} characters`;
  }
  // A password may itself hold '/' or '@': everything up to the last '@' goes.
  if (name === 'SMTP_URL') return JSON.stringify(value.replace(/\/\/.*@/, '//***@'));
  if (name === 'DATABASE_URL' || name === 'REDIS_URL')
    return JSON.stringify(value.replace(/\/\/[^@/]*@/, '//***@'));
  return JSON.stringify(value);
}

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash;
  } catch {
    return false;
  }
}
