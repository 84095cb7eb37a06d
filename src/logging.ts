import { pino, type Logger } from 'pino';
import { loggablePath } from './http/logged-path.js';

/**
 * Header and body fields that may carry credentials. pino replaces them with "[redacted]" if a
 * caller ever logs an object that contains them. (Not `*.code`: an error's code says what went
 * wrong, and the error serializer below is what keeps errors free of request content.)
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.password',
  '*.client_secret',
  '*.clientSecret',
  '*.refresh_token',
  '*.access_token',
  '*.id_token',
  '*.code_verifier',
  '*.token',
];

/**
 * What a logged error may say: what it is, where it came from and its codes. Everything else an
 * error object carries is left out: body-parser's errors carry the raw request body (a token
 * request's client secret), HTTP client errors their headers, database errors the row's values.
 */
const ERROR_FIELDS = [
  'code',
  'errno',
  'syscall',
  'status',
  'statusCode',
  'severity',
  'routine',
  'constraint',
  'table',
  'column',
  'limit',
  'length',
  'expected',
  'received',
] as const;

export function loggableError(error: unknown): unknown {
  if (!(error instanceof Error)) {
    return typeof error === 'string' ? { message: error } : { type: typeof error };
  }
  // The standard serializer folds the causes into the message and the stack.
  const { type, message, stack } = pino.stdSerializers.err(error);
  const fields: Record<string, unknown> = { type, message, stack };
  for (const name of ERROR_FIELDS) {
    const value: unknown = (error as unknown as Record<string, unknown>)[name];
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[name] = value;
  }
  if (error instanceof AggregateError) fields.errors = error.errors.map(loggableError);
  return fields;
}

/** A request as a log line may show it, should one ever be logged whole. */
function loggableRequest(req: {
  method?: string;
  url?: string;
  originalUrl?: string;
  id?: string;
}) {
  return { method: req.method, path: loggablePath(req.originalUrl ?? req.url ?? ''), id: req.id };
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'hiring-partner-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        err: loggableError,
        req: loggableRequest,
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    },
    // Without a destination, lines go to stdout asynchronously: a request never waits for the
    // terminal or the log collector, and pino flushes what is buffered when the process exits.
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
