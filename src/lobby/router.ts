import express, { Router, type RequestHandler } from 'express';
import { systemClock, type Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import type { InterviewLifecycle } from '../interviews/lifecycle/interview-lifecycle.js';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import { CsrfTokens } from '../sessions/csrf.js';
import { lobbyErrorPages } from './html-errors.js';
import { mountIntervieweeLobby } from './interviewee-lobby.js';
import { InterviewerIdentities } from './interviewer-identity.js';
import { mountInterviewerLobby } from './interviewer-lobby.js';
import { mountLandingPage } from './landing-page.js';
import { LobbyPages } from './lobby-pages.js';
import type { LobbyKit } from './lobby-kit.js';

export interface LobbyDependencies {
  lifecycle: InterviewLifecycle;
  config: Config;
  /** Server secret that CSRF tokens and interviewer cookies are derived from. */
  formSecret: string;
  clock?: Clock;
  /** Limits wrong-email attempts on the interviewer lobby (RATE_LIMIT_SIGN_IN_* settings). */
  identifyLimiter?: RateLimiter;
}

const PAGE_PREFIXES = [LOBBY_PATHS.landing, LOBBY_PATHS.interviewer, LOBBY_PATHS.interviewee];

/**
 * The interview pages: the landing page and the two lobbies (README "Interview pages"). Their
 * URLs are capabilities, so no answer under them may be cached or leak its address in a
 * Referer, and every unknown link gets the same not-found page.
 */
export function lobbyRouter(deps: LobbyDependencies): Router {
  const secure = deps.config.publicUrl.startsWith('https:');
  const pages = new LobbyPages();
  const kit: LobbyKit = {
    lifecycle: deps.lifecycle,
    pages,
    csrf: new CsrfTokens(deps.formSecret, { secure }),
    identities: new InterviewerIdentities(deps.formSecret, deps.clock ?? systemClock, { secure }),
    identifyLimiter: deps.identifyLimiter,
  };
  const form = express.urlencoded({
    extended: false,
    limit: deps.config.bodyLimitBytes,
    parameterLimit: 20,
  });

  const router = Router();
  router.use(PAGE_PREFIXES, privateAnswers);
  mountLandingPage(router, kit);
  mountIntervieweeLobby(router, kit, form);
  mountInterviewerLobby(router, kit, form);
  router.use(PAGE_PREFIXES, (_req, res) => pages.notFound(res));
  router.use(PAGE_PREFIXES, lobbyErrorPages(pages));
  return router;
}

const privateAnswers: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};
