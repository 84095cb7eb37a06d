import { GRANT_TYPES, type GrantType } from '../accounts/grant-types.js';
import { appPaths } from './paths.js';

export type AppTab = 'overview' | 'credentials' | 'redirect-urls' | 'activity';

/** The tab bar shown on every page of an app, the current tab marked. */
export function appTabs(clientId: string, current: AppTab | null) {
  const paths = appPaths(clientId);
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
