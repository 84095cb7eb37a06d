import type { Router } from 'express';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import { openLink, type LobbyKit } from './lobby-kit.js';

/** GET /interviews/:token: what the event is, when, and the way into its lobbies. */
export function mountLandingPage(router: Router, kit: LobbyKit): void {
  router.get(`${LOBBY_PATHS.landing}/:token`, async (req, res) => {
    const link = await openLink(kit, 'landing', req, res);
    if (!link) return;
    kit.pages.landing(res, await kit.lifecycle.view(link.access.eventId));
  });
}
