import type { Router } from 'express';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import { CALENDAR_FILE_NAME, calendarFile } from './calendar-event.js';
import { openLink, type LobbyServices } from './lobby-guards.js';

/**
 * GET /interviews/:token/event.ics and /lobby/interviewee/:token/event.ics: the event for a
 * calendar app, opened with the same capability token as its page (and the same not-found page
 * for any other). The router marks the answers no-store like the pages.
 */
export function mountCalendarFiles(
  router: Router,
  services: LobbyServices,
  publicUrl: string,
  calendarSequence: (eventId: string) => Promise<number | null> = async () => null,
): void {
  for (const role of ['landing', 'interviewee'] as const) {
    router.get(`${LOBBY_PATHS[role]}/:token/${CALENDAR_FILE_NAME}`, async (req, res) => {
      const link = await openLink(services, role, req, res);
      if (!link) return;
      const view = await services.lifecycle.view(link.access.eventId);
      const sequence = await calendarSequence(link.access.eventId);
      res.setHeader('Content-Type', 'text/calendar; charset=utf-8');
      res.setHeader('Content-Disposition', 'attachment; filename="interview.ics"');
      res.status(200).send(calendarFile(view, publicUrl, sequence));
    });
  }
}
