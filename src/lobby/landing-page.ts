import type { Router } from 'express';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import { openLink, type LobbyServices } from './lobby-guards.js';

/** GET /interviews/:token: what the event is, when, and the way into its lobbies. */
export function mountLandingPage(router: Router, services: LobbyServices): void {
  router.get(`${LOBBY_PATHS.landing}/:token`, async (req, res) => {
    const link = await openLink(services, 'landing', req, res);
    if (!link) return;
    services.pages.landing(res, await services.lifecycle.view(link.access.eventId), link.path);
  });
}
