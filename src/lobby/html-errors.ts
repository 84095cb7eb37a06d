import type { ErrorRequestHandler } from 'express';
import { recognise } from '../http/errors.js';
import type { LobbyPages } from './lobby-pages.js';

/**
 * Errors on the interview pages are answered with a page, not the API's JSON: a malformed or
 * oversized form gets its 4xx, a busy database a 503, anything unexpected a 500 whose details
 * are only in the log.
 */
export function lobbyErrorPages(pages: LobbyPages): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const known = recognise(error, req, res);
    const status = (error as { status?: unknown } | undefined)?.status;
    const exposed = (error as { expose?: unknown } | undefined)?.expose === true;
    try {
      if (known?.status === 503) {
        pages.message(res, 503, {
          title: 'The service is busy',
          message: 'Nothing was changed. Wait a moment, then try again.',
        });
      } else if (known) {
        pages.message(res, known.status, {
          title: 'This form could not be read',
          message: `${known.description}. Nothing was changed.`,
        });
      } else if (exposed && typeof status === 'number' && status >= 400 && status < 500) {
        pages.message(res, status, {
          title: 'This form could not be read',
          message: 'The submitted form is not valid. Nothing was changed.',
        });
      } else {
        req.log.error({ err: error }, 'unhandled error on an interview page');
        pages.message(res, 500, {
          title: 'Something went wrong',
          message: 'The page could not be shown. Wait a moment, then reload it.',
        });
      }
    } catch (renderError) {
      next(renderError);
    }
  };
}
