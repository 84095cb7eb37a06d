import type { Router } from 'express';
import { builtAssetHref } from '../http/built-assets.js';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import type { LobbyRole } from '../interviews/vocabulary.js';
import { CSRF_FIELD } from '../sessions/csrf.js';
import { openLink, type LobbyServices } from './lobby-guards.js';
import { mayEnterRoom, roomModel } from './page-models.js';

/**
 * GET /lobby/<role>/:token/room: the interview room behind each lobby. Interviewers may wait in
 * it while the event is open; the interviewee only once admitted. Whoever may not be there yet
 * goes back to their lobby, which says why. The room's media and signalling are the work of
 * its client (client/room, bundled into public/built/room.js) over the lobby's live connection
 * (src/room, the room protocol).
 */
export function mountRoomPage(router: Router, services: LobbyServices): void {
  for (const role of ['interviewer', 'interviewee'] as const satisfies LobbyRole[]) {
    router.get(`${LOBBY_PATHS[role]}/:token/room`, async (req, res) => {
      const link = await openLink(services, role, req, res);
      if (!link) return;
      const view = await services.lifecycle.view(link.access.eventId);
      const me =
        role === 'interviewer'
          ? services.identities.recall(req, { eventId: view.event.id, path: link.path })
          : link.access.intervieweeId;
      const known =
        role === 'interviewer'
          ? view.interviewers.some((interviewer) => interviewer.id === me)
          : view.interviewee?.id === me;
      if (!known || !mayEnterRoom(view, role)) return res.redirect(303, link.path);
      services.pages.room(res, {
        ...roomModel(view, role),
        lobby_path: link.path,
        live_path: `${link.path}/live`,
        recordings_path: role === 'interviewer' ? `${link.path}/recordings` : '',
        csrf_field: CSRF_FIELD,
        csrf_token: services.csrf.forAnonymous(req, res),
        script_src: builtAssetHref('room.js'),
      });
    });
  }
}
