import type { Router } from 'express';
import type { Interviews } from '../interviews/compose.js';
import type { Recordings } from '../recordings/compose.js';
import { isHttps, type Sessions } from '../sessions/compose.js';
import { createRateLimiter, type SharedDependencies } from '../shared-dependencies.js';
import { InterviewerIdentities } from './interviewer-identity.js';
import { LobbyPages } from './lobby-pages.js';
import { lobbyRouter } from './router.js';

/** The interview pages: the landing page and the two lobbies, on PUBLIC_URL. */
export interface Lobby {
  router(): Router;
  /** Which invited interviewer uses an interviewer lobby in a browser (its signed cookie). */
  identities: InterviewerIdentities;
  /** The one not-found page of the interview pages, for answers outside Express. */
  notFoundHtml(): string;
}

export function composeLobby(
  shared: SharedDependencies,
  deps: {
    interviews: Interviews;
    sessions: Sessions;
    recordings: Recordings;
    /** The SEQUENCE each event's calendar mails reached, for its calendar file. */
    calendar?: { sequenceOf(eventId: string): Promise<number | null> };
  },
): Lobby {
  const { config } = shared;
  const dependencies = {
    lifecycle: deps.interviews.lifecycle,
    config,
    csrf: deps.sessions.csrfFor(config.publicUrl),
    identities: new InterviewerIdentities(shared.serverSecret, shared.clock, {
      secure: isHttps(config.publicUrl),
    }),
    identifyLimiter: createRateLimiter(shared, 'lobby-identify', config.rateLimits.signIn),
    recordings: deps.recordings.service,
    calendarSequence: deps.calendar && ((eventId: string) => deps.calendar!.sequenceOf(eventId)),
    recordingList: deps.recordings.links,
  };
  const pages = new LobbyPages();
  return {
    router: () => lobbyRouter(dependencies),
    identities: dependencies.identities,
    notFoundHtml: () => pages.notFoundHtml(),
  };
}
