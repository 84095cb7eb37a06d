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
 * recording has stopped or is still growing; once final, its seekable copy.
 *
 * A partner shows the recording on its own site (`<video src=recordingUrl>`), so the recording,
 * and only it, is `Cross-Origin-Resource-Policy: cross-origin`: the unguessable token in its URL
 * is what protects it, as it is for whoever is given the URL, and CORP would only stop the
 * browsers of people who hold it already. The other protective headers stay: no caching by
 * shared caches or the browser, no referrer, no sniffing, and the site's CSP and framing rules
 * (which a media response does not need relaxed). Nothing else is cross-origin: no CORS, so
 * another origin's scripts cannot read the bytes.
 */
export function recordingStreamRouter(deps: StreamDependencies): Router {
  const router = Router();
  router.get(`${RECORDINGS_PATH}/:token`, async (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const recording = await deps.streamable(req.params.token);
    if (!recording) return deps.notFound(res);
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Content-Type', 'video/webm');
    if (recording.bytes === 0) {
      // Nothing acknowledged yet; `send` cannot be told to serve zero bytes of a file.
      res.setHeader('Accept-Ranges', 'bytes');
      res.status(200).end();
      return;
    }
    const serve = (file: StreamableRecording, lookedAgain: boolean) =>
      res.sendFile(
        file.path,
        { root: deps.root, end: file.bytes - 1, cacheControl: false },
        (error?: NodeJS.ErrnoException & { status?: number }) => {
          if (!error || res.headersSent) return;
          if (error.status === 404 || error.code === 'ENOENT') {
            if (lookedAgain) return deps.notFound(res);
            // Finalised between the look-up and the read: the recorded file gave way to its
            // seekable copy. Deleted: as gone as an unknown token.
            void deps.streamable(req.params.token).then((now) => {
              if (now && now.bytes > 0 && now.path !== file.path) serve(now, true);
              else deps.notFound(res);
            }, next);
          }
          // 416 (its Content-Range already set), 412: answers, not failures.
          else if (error.status && error.status < 500) res.status(error.status).end();
          else next(error);
        },
      );
    serve(recording, false);
  });
  return router;
}
