import { Router, type Request, type Response } from 'express';
import type { StoredDisposition } from '../disposition-sync/disposition.js';
import { ValidationError } from '../errors.js';
import { appTabs } from './app-tabs.js';
import type { ConsoleGuards } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { renderConsolePage } from './pages.js';
import { CONSOLE_PATHS, appPaths } from './paths.js';

/** Dispositions one page of the tab lists. */
export const DISPOSITION_PAGE_SIZE = 50;

/**
 * An app's Dispositions tab: what the app sent through Disposition Sync, for every employer and
 * its own token, the latest status change first, a page at a time. Read only: dispositions
 * come from the API alone.
 */
export function dispositionRouter(deps: ConsoleDependencies, guards: ConsoleGuards): Router {
  const router = Router();

  router.get(CONSOLE_PATHS.app.dispositions, async (req: Request, res: Response) => {
    const current = await guards.signedIn(req, res);
    if (!current) return;
    const app = await guards.ownedApp(res, current, String(req.params.clientId));
    if (!app) return;
    const after = typeof req.query.after === 'string' ? req.query.after : null;
    const [employers, page] = await Promise.all([
      deps.accounts.membershipsOf(current.session.userId),
      deps.dispositions.pageOfApp(app.id, after, DISPOSITION_PAGE_SIZE).catch((error: unknown) => {
        // A cursor from nowhere shows the first page.
        if (!(error instanceof ValidationError)) throw error;
        return deps.dispositions.pageOfApp(app.id, null, DISPOSITION_PAGE_SIZE);
      }),
    ]);
    const names = new Map(employers.map(({ employer }) => [employer.id, employer.name]));
    const path = appPaths(app.client_id).dispositions;
    const last = page.edges.at(-1);
    renderConsolePage(res, 200, 'console-app-dispositions.njk', current.viewer, {
      dashboard_href: CONSOLE_PATHS.dashboard,
      app_name: app.name,
      tabs: appTabs(app.client_id, 'dispositions'),
      page_size: DISPOSITION_PAGE_SIZE,
      first_page_href: after ? path : null,
      next_page_href:
        page.hasNextPage && last ? `${path}?after=${encodeURIComponent(last.cursor)}` : null,
      dispositions: page.edges.map(({ node }) => shown(node, names)),
    });
  });

  return router;
}

function shown(disposition: StoredDisposition, employerNames: ReadonlyMap<string, string>) {
  const { employerId } = disposition;
  return {
    changed: utcMinute(disposition.statusChangeDateTime.epochMs),
    status: disposition.dispositionStatus,
    raw_status: disposition.rawDispositionStatus,
    application: applicationText(disposition),
    ats: disposition.atsName,
    employer:
      employerId === null ? "The app's own token" : (employerNames.get(employerId) ?? employerId),
    received: utcMinute(disposition.receivedAt.epochMs),
  };
}

/** The identifier that names the application, as one line. */
function applicationText({ identifiedBy }: StoredDisposition): string {
  if (identifiedBy.indeedApplyID) return `Indeed Apply ID ${identifiedBy.indeedApplyID}`;
  if (identifiedBy.ittk) return `ittk ${identifiedBy.ittk}`;
  if (identifiedBy.universalApplyId) return `Universal apply ID ${identifiedBy.universalApplyId}`;
  const alternate = identifiedBy.alternateIdentifier;
  if (!alternate) return '';
  const { jobIdentifier: job, jobSeekerIdentifier: seeker } = alternate;
  const jobText = job.indeedJobKey
    ? `job key ${job.indeedJobKey}`
    : job.employerJobId
      ? `employer job ${job.employerJobId}`
      : `${job.atsApplicationIdentifier?.companyName} requisition ${job.atsApplicationIdentifier?.requisitionId}`;
  const seekerText = seeker.indeedJobSeekerKey
    ? `job seeker ${seeker.indeedJobSeekerKey}`
    : `${seeker.emailAddress}`;
  return `${seekerText}, ${jobText}`;
}

function utcMinute(epochMs: number): string {
  return `${new Date(epochMs).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}
