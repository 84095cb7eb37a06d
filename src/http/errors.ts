import type { ServerResponse } from 'node:http';
import { TemporarilyUnavailable } from '../errors.js';
import type { PlainNext, PlainRequest } from './endpoint.js';
import { sendJson } from './json-answer.js';

/** JSON error body used by every non-OAuth, non-GraphQL route. */
export interface ErrorBody {
  error: string;
  error_description: string;
  request_id?: string;
}

export function sendError(
  req: Pick<PlainRequest, 'id'>,
  res: ServerResponse,
  status: number,
  error: string,
  description: string,
): void {
  const body: ErrorBody = { error, error_description: description, request_id: req.id };
  sendJson(res, status, body);
}

export function notFound(req: PlainRequest & { path?: string }, res: ServerResponse): void {
  const path = req.path ?? pathOf(req.url ?? '/');
  sendError(req, res, 404, 'not_found', `No resource at ${req.method} ${path}`);
}

/** The path of a request target, without its query (what Express calls `req.path`). */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  limit?: number;
  expose?: boolean;
  errno?: unknown;
}

/** An error every interface answers in its own format, never as a 500. */
export interface KnownError {
  status: number;
  error: string;
  description: string;
  /** For a 503: the `Retry-After` to send. */
  retryAfterSeconds?: number;
}

/**
 * Last-resort error handler: body-parser failures become clear 4xx errors, a busy database a
 * 503; anything else is logged with its stack under the request id and answered with a masked
 * 500.
 */
export function errorHandler(
  error: unknown,
  req: PlainRequest,
  res: ServerResponse,
  next: PlainNext,
): void {
  if (res.headersSent) {
    next(error);
    return;
  }
  const known = recognise(error, req, res);
  if (known) {
    sendError(req, res, known.status, known.error, known.description);
    return;
  }
  req.log.error({ err: error }, 'unhandled error');
  sendError(req, res, 500, 'internal_server_error', 'Internal server error');
}

/**
 * `classify`, for an error handler about to answer: a 503 is logged (the operator should know
 * the database is contended) and gets its `Retry-After` header on `res`.
 */
export function recognise(
  error: unknown,
  req: PlainRequest,
  res: ServerResponse,
): KnownError | undefined {
  const known = classify(error);
  if (known?.retryAfterSeconds !== undefined) {
    req.log.warn({ err: error }, 'database busy after retries: answered 503');
    res.setHeader('Retry-After', String(known.retryAfterSeconds));
  }
  return known;
}

/**
 * What an error that is not a defect means for the answer: a request body that could not be
 * read (too large, not decodable, malformed), or a database too busy for now.
 */
export function classify(error: unknown): KnownError | undefined {
  if (error instanceof TemporarilyUnavailable) {
    return {
      status: 503,
      error: 'temporarily_unavailable',
      description: error.message,
      retryAfterSeconds: error.retryAfterSeconds,
    };
  }
  const httpish = (error ?? undefined) as HttpishError | undefined;
  switch (httpish?.type) {
    case 'entity.too.large':
      return {
        status: 413,
        error: 'payload_too_large',
        description: `Request body exceeds the limit of ${httpish.limit} bytes`,
      };
    case 'parameters.too.many':
      return {
        status: 413,
        error: 'payload_too_large',
        description: 'Request body has too many parameters',
      };
    case 'entity.parse.failed':
      return {
        status: 400,
        error: 'invalid_request',
        description: 'Request body is not valid JSON',
      };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return {
        status: 415,
        error: 'unsupported_media_type',
        description: 'Request body encoding or charset is not supported',
      };
    case 'request.aborted':
      return { status: 400, error: 'invalid_request', description: 'Request was aborted' };
    case 'request.size.invalid':
      return {
        status: 400,
        error: 'invalid_request',
        description: 'Request body length does not match its Content-Length',
      };
    default:
      return isUndecodableBody(httpish)
        ? {
            status: 400,
            error: 'invalid_request',
            description: 'Request body could not be decoded as its Content-Encoding says',
          }
        : undefined;
  }
}

/**
 * body-parser passes on the decompressor's (zlib's) error for a body that is not the gzip,
 * deflate or br its Content-Encoding names, as a 400 with zlib's `errno` and no `type`.
 */
function isUndecodableBody(error: HttpishError | undefined): boolean {
  return (
    error?.type === undefined &&
    error?.status === 400 &&
    error.expose === true &&
    typeof error.errno === 'number'
  );
}
