import {
  raw,
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import { recognise } from '../http/errors.js';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import type { RecordingService } from '../recordings/recording-service.js';
import { RecordingRefused, type RefusalKind } from '../recordings/recording-refused.js';
import { openLink, type LobbyServices } from './lobby-guards.js';

/** What the upload routes ask of the recordings capability. */
export type RecordingUploads = Pick<RecordingService, 'start' | 'appendChunk' | 'stop'>;

/** Who is recording, once a request passed the lobby's checks. */
interface Recorder {
  eventId: string;
  interviewerId: string;
  /** The lobby's path, under which the chunk URLs are. */
  path: string;
}

const STATUS: Record<RefusalKind, number> = {
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'bad-input': 400,
};

const ID = /^[A-Za-z0-9-]{1,64}$/;
const SEQ = /^\d{1,15}$/;

/**
 * The interviewer lobby's recording uploads (README "Recordings"), answered in JSON:
 * POST …/recordings starts one (201 with its chunk URL), PUT …/recordings/:id/chunks/:seq adds a
 * chunk (204), POST …/recordings/:id/stop stops it (204). Each request passes the lobby's checks:
 * the capability token (an unknown one gets the lobby's not-found page), the `X-CSRF-Token`
 * header carrying the page's CSRF token, and the cookie naming the interviewer.
 */
export function mountRecordingUploads(
  router: Router,
  services: LobbyServices,
  uploads: RecordingUploads,
  limits: { chunkMaxBytes: number },
): void {
  const base = `${LOBBY_PATHS.interviewer}/:token/recordings`;
  const recorderOf = (res: Response) => res.locals.recorder as Recorder;

  const authorise: RequestHandler = async (req, res, next) => {
    const link = await openLink(services, 'interviewer', req, res);
    if (!link) return;
    if (!services.csrf.verifyAnonymous(req, req.get('x-csrf-token'))) {
      return refuse(res, 403, 'This request did not come from the interview page. Reload it.');
    }
    const eventId = link.access.eventId;
    const interviewerId = services.identities.recall(req, { eventId, path: link.path });
    if (!interviewerId) {
      return refuse(res, 403, 'Enter your email address on the interview page again.');
    }
    res.locals.recorder = { eventId, interviewerId, path: link.path } satisfies Recorder;
    next();
  };
  // Read only after the checks, and never more than one chunk's worth.
  const chunkBody = raw({ type: () => true, limit: limits.chunkMaxBytes });

  router.post(base, authorise, async (_req, res) => {
    const { eventId, interviewerId, path } = recorderOf(res);
    await answer(res, 201, async () => {
      const { id } = await uploads.start(eventId, interviewerId);
      return { id, chunkUrl: `${path}/recordings/${id}/chunks` };
    });
  });

  router.put(`${base}/:id/chunks/:seq`, authorise, chunkBody, async (req, res) => {
    const { eventId, interviewerId } = recorderOf(res);
    const { id, seq } = params(req);
    if (!ID.test(id)) return refuse(res, 404, 'There is no such recording in this event.');
    if (!SEQ.test(seq)) return refuse(res, 400, 'The chunk number must be a whole number from 0.');
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    await answer(res, 204, () =>
      uploads.appendChunk(eventId, id, interviewerId, Number(seq), body),
    );
  });

  router.post(`${base}/:id/stop`, authorise, async (req, res) => {
    const { eventId, interviewerId } = recorderOf(res);
    const { id } = params(req);
    if (!ID.test(id)) return refuse(res, 404, 'There is no such recording in this event.');
    await answer(res, 204, () => uploads.stop(eventId, id, interviewerId));
  });

  router.use(base, jsonErrors);
}

/**
 * Runs the step; a refusal becomes its status and `{ error, … }` (with Retry-After when the same
 * request may succeed later), success `status`.
 */
async function answer(
  res: Response,
  status: number,
  step: () => Promise<object | void>,
): Promise<void> {
  try {
    const body = await step();
    if (body) res.status(status).json(body);
    else res.status(status).end();
  } catch (error) {
    if (!(error instanceof RecordingRefused)) throw error;
    if (error.retryAfterSeconds !== undefined) {
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
    }
    res.status(STATUS[error.kind]).json({ error: error.message, ...error.details });
  }
}

function refuse(res: Response, status: number, message: string): void {
  res.status(status).json({ error: message });
}

function params(req: Request): { id: string; seq: string } {
  const { id = '', seq = '' } = req.params as Record<string, string | undefined>;
  return { id, seq };
}

/**
 * A body too large, cut short or undecodable, a busy database (503), or anything unexpected,
 * still answers in JSON.
 */
const jsonErrors: ErrorRequestHandler = (error, req, res, next) => {
  if (res.headersSent) return next(error);
  const known = recognise(error, req, res);
  if (known) return refuse(res, known.status, `${known.description}.`);
  req.log.error({ err: error }, 'unhandled error on a recording upload');
  refuse(res, 500, 'Something went wrong. Wait a moment, then try again.');
};
