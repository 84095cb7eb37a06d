import type { ErrorRequestHandler } from 'express';
import { classify, recognise } from '../../http/errors.js';
import type { AuthorizePages } from './pages.js';

interface HttpishError {
  type?: string;
  status?: number;
  expose?: boolean;
  limit?: number;
}

/**
 * Errors on the authorization pages are answered with an HTML page, not the JSON of the API:
 * a malformed or oversized form gets its 4xx, a busy database a 503, anything unexpected a 500
 * page whose details are only in the log.
 */
export function htmlErrorPages(pages: AuthorizePages): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const known = describeClientError(error as HttpishError | undefined);
    try {
      if (recognise(error, req, res)?.status === 503) {
        pages.error(res, 503, {
          title: 'The service is busy',
          message: 'Nothing was sent to the app. Wait a moment, then try again.',
        });
        return;
      }
      if (known) {
        pages.error(res, known.status, {
          title: 'This form could not be read',
          message: known.message,
        });
        return;
      }
      req.log.error({ err: error }, 'unhandled error on an authorization page');
      pages.error(res, 500, {
        title: 'Something went wrong',
        message: 'The server could not finish this step. Nothing was sent to the app.',
      });
    } catch (renderError) {
      next(renderError);
    }
  };
}

function describeClientError(
  error: HttpishError | undefined,
): { status: number; message: string } | undefined {
  const known = classify(error);
  if (known) return { status: known.status, message: `${known.description}.` };
  const status = error?.status;
  if (error?.expose && status && status >= 400 && status < 500) {
    return { status, message: 'The submitted form is not valid.' };
  }
  return undefined;
}
