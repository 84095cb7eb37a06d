import { Router, type Request, type Response } from 'express';
import { ValidationError } from '../errors.js';
import { lifecycleAt, type StoredPosting } from '../job-sync/posting.js';
import { appTabs } from './app-tabs.js';
import type { ConsoleGuards } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { renderConsolePage } from './pages.js';
import { CONSOLE_PATHS, appPaths } from './paths.js';

/** Postings one page of the tab lists. */
export const POSTING_PAGE_SIZE = 50;

/**
 * An app's Job postings tab: what the app posted through Job Sync, for every employer, the
 * latest change first, a page at a time, each with its lifecycle status now. Read only: postings
 * come from the API alone. `managementUrls.viewJob` links here, to the posting's row.
 */
export function postingRouter(deps: ConsoleDependencies, guards: ConsoleGuards): Router {
  const router = Router();

  router.get(CONSOLE_PATHS.app.postings, async (req: Request, res: Response) => {
    const current = await guards.signedIn(req, res);
    if (!current) return;
    const app = await guards.ownedApp(res, current, String(req.params.clientId));
    if (!app) return;
    const after = typeof req.query.after === 'string' ? req.query.after : null;
    const { reader } = deps.postings;
    const [employers, page] = await Promise.all([
      deps.accounts.membershipsOf(current.session.userId),
      reader.pageOfApp(app.id, POSTING_PAGE_SIZE, after).catch((error: unknown) => {
        // A cursor from nowhere shows the first page.
        if (!(error instanceof ValidationError)) throw error;
        return reader.pageOfApp(app.id, POSTING_PAGE_SIZE, null);
      }),
    ]);
    const names = new Map(employers.map(({ employer }) => [employer.id, employer.name]));
    const path = appPaths(app.client_id).postings;
    const now = deps.postings.now();
    renderConsolePage(res, 200, 'console-app-postings.njk', current.viewer, {
      dashboard_href: CONSOLE_PATHS.dashboard,
      app_name: app.name,
      tabs: appTabs(app.client_id, 'postings'),
      page_size: POSTING_PAGE_SIZE,
      total: page.total,
      first_page_href: after ? path : null,
      next_page_href: page.next ? `${path}?after=${encodeURIComponent(page.next)}` : null,
      postings: page.postings.map((posting) => shown(posting, names, now)),
    });
  });

  return router;
}

function shown(posting: StoredPosting, employerNames: ReadonlyMap<string, string>, now: number) {
  const { content } = posting;
  return {
    anchor: `posting-${posting.sourcedPostingId}`,
    title: content.title,
    job_posting_id: content.jobPostingId,
    source: content.jobSource.sourceName,
    company: content.jobSource.companyName,
    place: content.location.cityRegionPostal ?? content.location.country,
    status: lifecycleAt(posting, now),
    employer: employerNames.get(posting.employerId) ?? posting.employerId,
    sourced_posting_id: posting.sourcedPostingId,
    updated: utcMinute(posting.updatedAt),
  };
}

function utcMinute(epochMs: number): string {
  return `${new Date(epochMs).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}
