import { Router, type Response } from 'express';
import type { StreamableRecording } from './recording-service.js';
import { RECORDINGS_PATH } from './recording-tokens.js';

export interface StreamDependencies {
  /** The recording a token opens; null for an unknown, altered or deleted token. */
  streamable(token: string): Promise<StreamableRecording | null>;
  /** RECORDINGS_DIR, absolute. */
  root: string;
  /** The interview pages' one not-found page, so a wrong link tells nothing about its kind. */
  notFound(res: Response): void;
}

/**
 * GET and HEAD /recordings/:token on PUBLIC_URL: the recording as `video/webm`, with byte ranges
 * (206, 416) so that players can seek. Only the acknowledged bytes are served, whether the
 * recording has stopped or is still growing.
 */
export function recordingStreamRouter(deps: StreamDependencies): Router {
  const router = Router();
  router.get(`${RECORDINGS_PATH}/:token`, async (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const recording = await deps.streamable(req.params.token);
    if (!recording) return deps.notFound(res);
    res.setHeader('Content-Type', 'video/webm');
    if (recording.bytes === 0) {
      // Nothing acknowledged yet; `send` cannot be told to serve zero bytes of a file.
      res.setHeader('Accept-Ranges', 'bytes');
      res.status(200).end();
      return;
    }
    res.sendFile(
      recording.path,
      { root: deps.root, end: recording.bytes - 1, cacheControl: false },
      (error?: NodeJS.ErrnoException & { status?: number }) => {
        if (!error || res.headersSent) return;
        // Deleted between the look-up and the read: as gone as an unknown token.
        if (error.status === 404 || error.code === 'ENOENT') deps.notFound(res);
        // 416 (its Content-Range already set), 412: answers, not failures.
        else if (error.status && error.status < 500) res.status(error.status).end();
        else next(error);
      },
    );
  });
  return router;
}
