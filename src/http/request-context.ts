import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { PlainNext, PlainRequest } from './endpoint.js';
import { loggablePath } from './logged-path.js';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,64}$/;

declare module 'express-serve-static-core' {
  interface Request {
    /** Correlation id of this request: echoed as X-Request-Id and on every log line. */
    id: string;
    /** The app's logger with this request's id on every line. */
    log: Logger;
  }
}

/**
 * Gives every request an id (a caller-supplied X-Request-Id when it is well-formed), a logger
 * that writes it on every line, and one access-log line when the response finishes. Only the
 * path the client asked for is logged, with capability tokens masked (loggablePath): query
 * strings, bodies and lobby URLs can carry codes and tokens.
 *
 * The id travels with the request explicitly (`req.id`, `req.log`, and from there to whatever
 * the handler passes it to, audit entries included), not in an AsyncLocalStorage: on Node 20 an
 * active AsyncLocalStorage hooks every promise of the process, which measured at about half a
 * microsecond per `await`, a large share of a request served from caches.
 */
export function requestContext(logger: Logger) {
  return (req: PlainRequest, res: ServerResponse, next: PlainNext): void => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    const log = logger.child({ requestId: id });
    req.id = id;
    req.log = log;
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      // Below info (LOG_LEVEL=warn) the line is not written: nor is it put together.
      if (!log.isLevelEnabled('info')) return;
      log.info(
        {
          method: req.method,
          // Not req.path: a router mounted at a prefix has cut that prefix off by now.
          path: loggablePath(req.originalUrl ?? req.url ?? '/'),
          status: res.statusCode,
          durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        },
        'request completed',
      );
    });
    next();
  };
}
