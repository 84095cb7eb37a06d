/**
 * What the lobby pages guard every request with (the capability link opened on its own page,
 * the form's CSRF token), the lifecycle step that turns a refusal into a message, and the
 * services every interview page handler shares.
 */

import type { RateLimiter } from '../security/rate-limiter.js';
import type { Request, Response, Router } from 'express';
import type { LobbyRole } from '../interviews/vocabulary.js';
import { NotFoundError, ValidationError } from '../errors.js';
import {
  TransitionRefused,
  type InterviewLifecycle,
  type LobbyAccess,
} from '../interviews/lifecycle/interview-lifecycle.js';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import { CSRF_FIELD, type CsrfTokens } from '../sessions/csrf.js';
import type { InterviewerIdentities } from './interviewer-identity.js';
import type { LobbyPages } from './lobby-pages.js';

/** The services every interview page handler shares. */
export interface LobbyServices {
  lifecycle: InterviewLifecycle;
  pages: LobbyPages;
  csrf: CsrfTokens;
  identities: InterviewerIdentities;
  /** Counts wrong emails on the interviewer lobby per client address and event. */
  identifyLimiter: AttemptLimiter;
}

/** The part of a RateLimiter the pages use. */
export type AttemptLimiter = Pick<RateLimiter, 'isBlocked' | 'consume'>;

/** A token opened on the page of its own kind. */
export interface OpenedLink {
  access: LobbyAccess;
  token: string;
  /** The page's path, to redirect back to after a form. */
  path: string;
}

/** Tokens are 43 URL-safe characters; anything far from that is not worth a database look-up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * Resolves the `:token` of the request for a page of `role`. An unknown, altered or other kind
 * of token answers the one not-found page and returns null.
 */
export async function openLink(
  services: LobbyServices,
  role: LobbyRole,
  req: Request,
  res: Response,
): Promise<OpenedLink | null> {
  const token = (req.params as Record<string, string | undefined>).token ?? '';
  const access = TOKEN_SHAPE.test(token) ? await services.lifecycle.access(role, token) : null;
  if (!access || access.role !== role) {
    services.pages.notFound(res);
    return null;
  }
  return { access, token, path: `${LOBBY_PATHS[role]}/${token}` };
}

/** Checks the form's CSRF token; when it fails, answers 403 and returns false. */
export function acceptForm(services: LobbyServices, req: Request, res: Response): boolean {
  if (services.csrf.verifyAnonymous(req, formField(req, CSRF_FIELD))) return true;
  services.pages.message(res, 403, {
    title: 'This form has expired',
    message:
      'For your security the form was not accepted: it has expired or was not sent from this ' +
      'site. Nothing was changed. Go back, reload the page and try again.',
  });
  return false;
}

/** What a refused step tells the person, and the status the page goes out with. */
export interface Refusal {
  status: number;
  message: string;
}

/** Runs a lifecycle step; a refusal the person can understand comes back instead of throwing. */
export async function attempt(step: () => Promise<void>): Promise<Refusal | null> {
  try {
    await step();
    return null;
  } catch (error) {
    if (error instanceof TransitionRefused) return { status: 409, message: error.message };
    if (error instanceof ValidationError) return { status: 400, message: sentence(error.message) };
    if (error instanceof NotFoundError) return { status: 404, message: sentence(error.message) };
    throw error;
  }
}

/** "note must be at most 5000 characters" as a sentence: capital first, full stop last. */
function sentence(message: string): string {
  const text = message.trim();
  const capital = `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** A text field of the submitted form; missing, repeated or non-text values read as ''. */
export function formField(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/**
 * A page shown again after a refused form has the form's address in the address bar; opening
 * that address later (a bookmark, the history) leads back to the page itself.
 */
export function backToPage(
  router: Router,
  services: LobbyServices,
  role: LobbyRole,
  steps: string[],
): void {
  for (const step of steps) {
    router.get(`${LOBBY_PATHS[role]}/:token/${step}`, async (req, res) => {
      const link = await openLink(services, role, req, res);
      if (link) res.redirect(303, link.path);
    });
  }
}
