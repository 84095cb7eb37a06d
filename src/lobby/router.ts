import express, { Router, type RequestHandler } from 'express';
import type { Config } from '../config.js';
import type { InterviewLifecycle } from '../interviews/lifecycle/interview-lifecycle.js';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import type { CsrfTokens } from '../sessions/csrf.js';
import { mountCalendarFiles } from './calendar-file.js';
import { lobbyErrorPages } from './html-errors.js';
import { mountIntervieweeLobby } from './interviewee-lobby.js';
import type { InterviewerIdentities } from './interviewer-identity.js';
import { mountInterviewerLobby } from './interviewer-lobby.js';
import { mountLandingPage } from './landing-page.js';
import { LobbyPages } from './lobby-pages.js';
import { mountRoomPage } from './room-page.js';
import type { AttemptLimiter, LobbyServices } from './lobby-guards.js';
import type { EventRecordings } from './recording-list.js';
import { mountRecordingUploads, type RecordingUploads } from './recording-uploads.js';

export interface LobbyDependencies {
  lifecycle: InterviewLifecycle;
  config: Config;
  /** CSRF tokens of forms on PUBLIC_URL. */
  csrf: CsrfTokens;
  /** Remembers which interviewer uses an interviewer lobby in a browser. */
  identities: InterviewerIdentities;
  /** Limits wrong-email attempts on the interviewer lobby (RATE_LIMIT_SIGN_IN_* settings). */
  identifyLimiter: AttemptLimiter;
  /** Recording uploads from the interviewer lobby; absent, the lobby has none. */
  recordings?: RecordingUploads;
  /** The SEQUENCE the event's calendar mails reached (src/calendar-mail), or null. */
  calendarSequence?: (eventId: string) => Promise<number | null>;
  /** The event's recordings the interviewer lobby lists; absent, it lists none. */
  recordingList?: EventRecordings;
}

const PAGE_PREFIXES = [LOBBY_PATHS.landing, LOBBY_PATHS.interviewer, LOBBY_PATHS.interviewee];

/**
 * The interview pages: the landing page, the two lobbies and the event's calendar file (README
 * "Interview pages"). Their URLs are capabilities, so no answer under them may be cached or leak
 * its address in a Referer, and every unknown link gets the same not-found page.
 */
export function lobbyRouter(deps: LobbyDependencies): Router {
  const pages = new LobbyPages();
  const services: LobbyServices = {
    lifecycle: deps.lifecycle,
    pages,
    csrf: deps.csrf,
    identities: deps.identities,
    identifyLimiter: deps.identifyLimiter,
  };
  const form = express.urlencoded({
    extended: false,
    limit: deps.config.bodyLimitBytes,
    parameterLimit: 20,
  });

  const router = Router();
  router.use(PAGE_PREFIXES, privateAnswers);
  mountLandingPage(router, services);
  mountIntervieweeLobby(router, services, form);
  mountInterviewerLobby(router, services, form, deps.recordingList);
  mountRoomPage(router, services);
  mountCalendarFiles(router, services, deps.config.publicUrl, deps.calendarSequence);
  if (deps.recordings) {
    mountRecordingUploads(router, services, deps.recordings, deps.config.recordings);
  }
  router.use(PAGE_PREFIXES, (_req, res) => pages.notFound(res));
  router.use(PAGE_PREFIXES, lobbyErrorPages(pages));
  return router;
}

const privateAnswers: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};
