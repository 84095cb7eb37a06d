import type { ErrorRequestHandler } from 'express';
import { classify, recognise } from '../http/errors.js';
import type { ConsolePages } from './pages.js';

/**
 * Errors on console pages are answered with a console page: a malformed or oversized form gets
 * its 4xx, a busy database a 503, anything unexpected a 500 page whose details are only in the
 * log.
 */
export function consoleErrorPages(pages: ConsolePages): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const status = clientErrorStatus(error);
    try {
      if (recognise(error, req, res)?.status === 503) {
        pages.message(res, 503, null, {
          title: 'The service is busy',
          message: 'Nothing was changed. Try again in a moment.',
        });
        return;
      }
      if (status) {
        pages.message(res, status, null, {
          title: 'This form could not be read',
          message: `${describe(error)} Nothing was changed.`,
        });
        return;
      }
      req.log.error({ err: error }, 'unhandled error on a console page');
      pages.message(res, 500, null, {
        title: 'Something went wrong',
        message: 'The server could not finish this step. Try again in a moment.',
      });
    } catch (renderError) {
      next(renderError);
    }
  };
}

function clientErrorStatus(error: unknown): number | undefined {
  const known = classify(error as Parameters<typeof classify>[0]);
  if (known) return known.status;
  const { status, expose } = (error ?? {}) as { status?: number; expose?: boolean };
  return expose && status && status >= 400 && status < 500 ? status : undefined;
}

function describe(error: unknown): string {
  const known = classify(error as Parameters<typeof classify>[0]);
  return known ? `${known.description}.` : 'The submitted form is not valid.';
}
