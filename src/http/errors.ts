import type { NextFunction, Request, Response } from 'express';

/** JSON error body used by every non-OAuth, non-GraphQL route. */
export interface ErrorBody {
  error: string;
  error_description: string;
  request_id?: string;
}

export function sendError(
  req: Request,
  res: Response,
  status: number,
  error: string,
  description: string,
): void {
  const body: ErrorBody = { error, error_description: description, request_id: req.id };
  res.status(status).type('application/json').send(JSON.stringify(body));
}

export function notFound(req: Request, res: Response): void {
  sendError(req, res, 404, 'not_found', `No resource at ${req.method} ${req.path}`);
}

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  limit?: number;
  expose?: boolean;
}

/**
 * Last-resort error handler: body-parser failures become clear 4xx errors; anything else is
 * logged with its stack under the request id and answered with a masked 500.
 */
export function errorHandler(
  error: unknown,
  req: Request,
  res: Response,
  next: NextFunction,
): void {
  if (res.headersSent) {
    next(error);
    return;
  }
  const known = classify(error as HttpishError);
  if (known) {
    sendError(req, res, known.status, known.error, known.description);
    return;
  }
  req.log.error({ err: error }, 'unhandled error');
  sendError(req, res, 500, 'internal_server_error', 'Internal server error');
}

export function classify(
  error: HttpishError | undefined,
): { status: number; error: string; description: string } | undefined {
  switch (error?.type) {
    case 'entity.too.large':
      return {
        status: 413,
        error: 'payload_too_large',
        description: `Request body exceeds the limit of ${error.limit} bytes`,
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
    default:
      return undefined;
  }
}
