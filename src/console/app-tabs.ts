import type { GrantChoice } from '../oauth/grants/registry.js';
import { appPaths } from './paths.js';

export type AppTab =
  | 'overview'
  | 'credentials'
  | 'redirect-urls'
  | 'webhooks'
  | 'postings'
  | 'dispositions'
  | 'budget'
  | 'calendar-mails'
  | 'activity';

/** The tab bar shown on every page of an app, the current tab marked. */
export function appTabs(clientId: string, current: AppTab | null) {
  const paths = appPaths(clientId);
  const tabs: Array<[AppTab, string, string]> = [
    ['overview', 'Overview', paths.overview],
    ['credentials', 'Credentials', paths.credentials],
    ['redirect-urls', 'Redirect URLs', paths.redirectUrls],
    ['webhooks', 'Webhooks', paths.webhooks],
    ['postings', 'Job postings', paths.postings],
    ['dispositions', 'Dispositions', paths.dispositions],
    ['budget', 'API budget', paths.budget],
    ['calendar-mails', 'Calendar mails', paths.calendarMails],
    ['activity', 'Activity', paths.activity],
  ];
  return tabs.map(([id, label, href]) => ({ label, href, current: id === current }));
}

/**
 * The grant type checkboxes of a form: one per grant of the registry (`grants`, its choices), in
 * its order, the chosen ones ticked.
 */
export function grantChoices(grants: readonly GrantChoice[], chosen: readonly string[]) {
  return grants.map((grant) => ({
    value: grant.name,
    input_id: `grant-type-${grant.name.replace(/[^A-Za-z0-9]+/g, '-')}`,
    label: `${grant.label}: ${grant.description}${grant.publicClients ? '' : ' (confidential apps only)'}`,
    checked: chosen.includes(grant.name),
  }));
}
