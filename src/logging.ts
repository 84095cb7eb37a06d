import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger } from 'pino';

interface RequestScope {
  requestId: string;
}

const requestScope = new AsyncLocalStorage<RequestScope>();

/**
 * Header and body fields that may carry credentials. pino replaces them with "[redacted]" if a
 * caller ever logs an object that contains them.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.clientSecret',
  '*.refresh_token',
  '*.access_token',
  '*.code',
  '*.code_verifier',
  '*.token',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'hiring-partner-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // Every line written while a request is in flight carries its id, including lines from
      // services and the data layer that never see the request object.
      mixin: () => {
        const scope = requestScope.getStore();
        return scope ? { requestId: scope.requestId } : {};
      },
    },
    // Without a destination, lines go to stdout asynchronously: a request never waits for the
    // terminal or the log collector, and pino flushes what is buffered when the process exits.
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return requestScope.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}
