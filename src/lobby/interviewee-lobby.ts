import type { Request, RequestHandler, Response, Router } from 'express';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import {
  acceptForm,
  attempt,
  backToPage,
  openLink,
  type LobbyKit,
  type OpenedLink,
} from './lobby-kit.js';

/**
 * The interviewee lobby: GET /lobby/interviewee/:token shows where they stand, and
 * POST …/check-in puts them in the lobby. A refused check-in shows the page again with the
 * reason (409); a successful one redirects back (303).
 */
export function mountIntervieweeLobby(router: Router, kit: LobbyKit, form: RequestHandler): void {
  const page = `${LOBBY_PATHS.interviewee}/:token`;

  async function show(
    req: Request,
    res: Response,
    link: OpenedLink,
    problem?: { status: number; message: string },
  ): Promise<void> {
    const view = await kit.lifecycle.view(link.access.eventId);
    if (!view.interviewee || view.interviewee.id !== link.access.intervieweeId) {
      return kit.pages.notFound(res);
    }
    kit.pages.intervieweeLobby(res, {
      view,
      path: link.path,
      csrfToken: kit.csrf.forAnonymous(req, res),
      status: problem?.status,
      error: problem?.message,
    });
  }

  router.get(page, async (req, res) => {
    const link = await openLink(kit, 'interviewee', req, res);
    if (link) await show(req, res, link);
  });

  router.post(`${page}/check-in`, form, async (req, res) => {
    if (!acceptForm(kit, req, res)) return;
    const link = await openLink(kit, 'interviewee', req, res);
    if (!link) return;
    const { eventId, intervieweeId } = link.access;
    if (!intervieweeId) return kit.pages.notFound(res);
    const refusal = await attempt(() => kit.lifecycle.checkIn(eventId, intervieweeId));
    if (refusal) return show(req, res, link, refusal);
    res.redirect(303, link.path);
  });

  backToPage(router, kit, 'interviewee', ['check-in']);
}
