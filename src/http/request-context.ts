import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { runWithRequestId } from '../logging.js';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Pages whose URLs carry a capability token: the segment after the prefix is a secret. */
const CAPABILITY_PATH =
  /^(\/interviews|\/lobby\/interviewer|\/lobby\/interviewee|\/console\/verify-email|\/console\/reset-password)\/[^/]+/;

/** The request path as it may be logged: capability tokens replaced by a placeholder. */
export function loggablePath(path: string): string {
  return path.replace(CAPABILITY_PATH, '$1/:token');
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Correlation id of this request: echoed as X-Request-Id and on every log line. */
    id: string;
    log: Logger;
  }
}

/**
 * Gives every request an id (a caller-supplied X-Request-Id when it is well-formed), a child
 * logger, and one access-log line when the response finishes. Only the path is logged, with
 * capability tokens masked: query strings, bodies and lobby URLs can carry codes and tokens.
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get('x-request-id');
    const id = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    req.id = id;
    req.log = logger;
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      runWithRequestId(id, () =>
        logger.info(
          {
            method: req.method,
            path: loggablePath(req.path),
            status: res.statusCode,
            durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          },
          'request completed',
        ),
      );
    });
    runWithRequestId(id, next);
  };
}
