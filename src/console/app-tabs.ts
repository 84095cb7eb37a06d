import { GRANT_TYPES, type GrantType } from '../accounts/grant-types.js';
import { CONSOLE_PREFIX } from './paths.js';

/** Route patterns of an app's tabs, beside the Credentials tab of paths.ts. */
const APP = `${CONSOLE_PREFIX}/apps/:clientId`;
export const APP_DETAIL_PATHS = {
  overview: APP,
  editOverview: `${APP}/overview`,
  redirectUrls: `${APP}/redirect-urls`,
  redirectUrl: `${APP}/redirect-urls/:position`,
  removeRedirectUrl: `${APP}/redirect-urls/:position/remove`,
  activity: `${APP}/activity`,
  delete: `${APP}/delete`,
} as const;

/** The addresses of one app's tabs and forms. */
export function appDetailPaths(clientId: string) {
  const base = `${CONSOLE_PREFIX}/apps/${encodeURIComponent(clientId)}`;
  return {
    overview: base,
    editOverview: `${base}/overview`,
    credentials: `${base}/credentials`,
    redirectUrls: `${base}/redirect-urls`,
    redirectUrl: (position: number) => `${base}/redirect-urls/${position}`,
    removeRedirectUrl: (position: number) => `${base}/redirect-urls/${position}/remove`,
    activity: `${base}/activity`,
    delete: `${base}/delete`,
  };
}

export type AppTab = 'overview' | 'credentials' | 'redirect-urls' | 'activity';

/** The tab bar shown on every page of an app, the current tab marked. */
export function appTabs(clientId: string, current: AppTab | null) {
  const paths = appDetailPaths(clientId);
  const tabs: Array<[AppTab, string, string]> = [
    ['overview', 'Overview', paths.overview],
    ['credentials', 'Credentials', paths.credentials],
    ['redirect-urls', 'Redirect URLs', paths.redirectUrls],
    ['activity', 'Activity', paths.activity],
  ];
  return tabs.map(([id, label, href]) => ({ label, href, current: id === current }));
}

const GRANT_LABELS: Record<GrantType, string> = {
  authorization_code: 'Authorization code: users sign in and allow the app access',
  refresh_token: 'Refresh token: keep access without asking users to sign in again',
  client_credentials:
    'Client credentials: the app acts for itself and its employers (confidential apps only)',
};

/** Short names of the grants, for read-only lists. */
export const GRANT_NAMES: Record<GrantType, string> = {
  authorization_code: 'Authorization code',
  refresh_token: 'Refresh token',
  client_credentials: 'Client credentials',
};

/** The grant type checkboxes of a form, the chosen ones ticked. */
export function grantChoices(chosen: readonly string[]) {
  return GRANT_TYPES.map((grant) => ({
    value: grant,
    input_id: `grant-type-${grant.replaceAll('_', '-')}`,
    label: GRANT_LABELS[grant],
    checked: chosen.includes(grant),
  }));
}
