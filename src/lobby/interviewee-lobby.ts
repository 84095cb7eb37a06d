import type { Request, RequestHandler, Response, Router } from 'express';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import {
  acceptForm,
  attempt,
  backToPage,
  openLink,
  type LobbyServices,
  type OpenedLink,
} from './lobby-guards.js';

/**
 * The interviewee lobby: GET /lobby/interviewee/:token shows where they stand, and
 * POST …/check-in puts them in the lobby. A refused check-in shows the page again with the
 * reason (409); a successful one redirects back (303).
 */
export function mountIntervieweeLobby(
  router: Router,
  services: LobbyServices,
  form: RequestHandler,
): void {
  const page = `${LOBBY_PATHS.interviewee}/:token`;

  async function show(
    req: Request,
    res: Response,
    link: OpenedLink,
    problem?: { status: number; message: string },
  ): Promise<void> {
    const view = await services.lifecycle.view(link.access.eventId);
    if (!view.interviewee || view.interviewee.id !== link.access.intervieweeId) {
      return services.pages.notFound(res);
    }
    services.pages.intervieweeLobby(res, {
      view,
      path: link.path,
      csrfToken: services.csrf.forAnonymous(req, res),
      status: problem?.status,
      error: problem?.message,
    });
  }

  router.get(page, async (req, res) => {
    const link = await openLink(services, 'interviewee', req, res);
    if (link) await show(req, res, link);
  });

  router.post(`${page}/check-in`, form, async (req, res) => {
    if (!acceptForm(services, req, res)) return;
    const link = await openLink(services, 'interviewee', req, res);
    if (!link) return;
    const { eventId, intervieweeId } = link.access;
    if (!intervieweeId) return services.pages.notFound(res);
    const refusal = await attempt(() => services.lifecycle.checkIn(eventId, intervieweeId));
    if (refusal) return show(req, res, link, refusal);
    res.redirect(303, link.path);
  });

  backToPage(router, services, 'interviewee', ['check-in']);
}
