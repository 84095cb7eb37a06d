import type { Response } from 'express';
import type { AppApiAccess } from '../accounts/api-access-service.js';
import { allowsGrant } from '../accounts/grant-types.js';
import { MAX_REDIRECT_URIS } from '../accounts/redirect-uris.js';
import type { AppRow, AuditEventRow } from '../db/rows.js';
import type { FieldProblem } from '../errors.js';
import type { GrantChoice } from '../oauth/grants/registry.js';
import { appTabs, grantChoices, type AppTab } from './app-tabs.js';
import type { FirstCall } from './first-call.js';
import { problemContext, renderConsolePage, type FormProblem, type Viewer } from './pages.js';
import { CONSOLE_PATHS, appPaths } from './paths.js';

/** What the owner typed into the Overview form, shown again when it is refused. */
export interface OverviewValues {
  name: string;
  description: string;
  grantTypes: readonly string[];
  developerName: string;
  homepageUrl: string;
  privacyPolicyUrl: string;
  logoUrl: string;
}

/** The input each field of the Overview form is typed into, for the error summary's links. */
const OVERVIEW_INPUTS: Record<string, string> = {
  name: 'app-name',
  description: 'app-description',
  developer_name: 'developer-name',
  homepage_url: 'homepage-url',
  privacy_policy_url: 'privacy-policy-url',
  logo_url: 'logo-url',
};

/** A refused redirect URL edit: which form (a position, or 'new') and what was typed. */
export interface RedirectUrlAttempt {
  position: number | 'new';
  value: string;
  problem: FormProblem;
}

/** How each audited event reads on the Activity tab. */
const EVENT_WORDS: Record<string, string> = {
  'token.issued': 'Access token issued',
  'explorer_token.issued': 'Access token issued for the API explorer',
  'token.revoked': 'Token revoked',
  'code.replayed': 'Authorization code used twice; tokens from it were revoked',
  'refresh_token.reused': 'Used refresh token presented again; its tokens were revoked',
  'consent.granted': 'A user allowed access',
  'consent.denied': 'A user denied access',
  'sign_in.succeeded': 'A user signed in to authorize the app',
  'sign_in.failed': 'A sign-in to authorize the app failed',
  'sign_in.rate_limited': 'Sign-in attempts were rate limited',
  'app.registered': 'App registered',
  'app.updated': 'App details changed',
  'app.redirect_uris_changed': 'Redirect URLs changed',
  'app.redirect_uri_added': 'Redirect URL added',
  'app.redirect_uri_changed': 'Redirect URL changed',
  'app.redirect_uri_removed': 'Redirect URL removed',
  'app.secret_rotated': 'Client secret rotated',
  'app.secret_revealed': 'Client secret revealed on the console',
  'app.deleted': 'App deleted',
  'app.api_enabled': 'API enabled',
  'app.api_disabled': 'API disabled',
  'app.cost_budget_changed': 'API budget changed',
  'calendar_mail.settings_changed': 'Calendar mail settings changed',
  'webhook.endpoint_created': 'Webhook endpoint added',
  'webhook.endpoint_updated': 'Webhook endpoint changed',
  'webhook.endpoint_enabled': 'Webhook endpoint enabled',
  'webhook.endpoint_disabled': 'Webhook endpoint disabled',
  'webhook.endpoint_deleted': 'Webhook endpoint deleted',
  'webhook.secret_rotated': 'Webhook signing secret rotated',
  'webhook.test_sent': 'Webhook test event sent',
  'webhook.delivery_resent': 'Webhook delivery resent',
  'webhook.deliveries_recovered': 'Failed webhook deliveries recovered',
};

/** The only details the Activity tab shows, in this order; none of them can hold a secret. */
const SHOWN_DETAILS: Record<string, string> = {
  changed: 'Changed',
  api: 'API',
  invitations: 'Invitations, updates and cancellations',
  reminders: 'Reminders',
  name: 'Name',
  client_type: 'Client type',
  grant: 'Grant',
  grant_types: 'Grant types',
  scope: 'Scope',
  reason: 'Reason',
  redirect_uri: 'Redirect URL',
  position: 'Position',
  redirect_uris: 'Redirect URLs',
  developer_name: 'Developer name',
  homepage_url: 'Homepage',
  privacy_policy_url: 'Privacy policy',
  logo_url: 'Logo',
  url: 'Endpoint',
  endpoint_id: 'Endpoint id',
  event_types: 'Event types',
  employer_ids: 'Employers',
  previous_secret_until: 'Previous secret signs until',
  delivery_id: 'Delivery',
  since: 'Failed since',
  recovered: 'Deliveries recovered',
};

const ACTIVITY_LIMIT = 50;

/** The Overview, Redirect URLs, Activity and Delete pages of an app. */
export class AppDetailsPages {
  static readonly activityLimit = ACTIVITY_LIMIT;

  /** `grants`: the grant registry's choices, offered on the Overview form. */
  constructor(private readonly grants: readonly GrantChoice[]) {}

  overview(
    res: Response,
    viewer: Viewer,
    page: {
      app: AppRow;
      firstCall: FirstCall;
      /** Every API behind /graphql and whether this app may use it: one switch each. */
      apis: readonly AppApiAccess[];
      values?: OverviewValues;
      problems?: readonly FieldProblem[];
    },
  ): void {
    const { app, firstCall } = page;
    const allowed = this.grants.filter((grant) => allowsGrant(app, grant.name));
    const values = page.values ?? {
      name: app.name,
      description: app.description ?? '',
      grantTypes: allowed.map((grant) => grant.name),
      developerName: app.developer_name ?? '',
      homepageUrl: app.homepage_url ?? '',
      privacyPolicyUrl: app.privacy_policy_url ?? '',
      logoUrl: app.logo_url ?? '',
    };
    const problems = page.problems ?? [];
    const choices = grantChoices(this.grants, values.grantTypes);
    const inputOf = (field: string) => OVERVIEW_INPUTS[field] ?? choices[0]?.input_id ?? '';
    const invalid = (field: string) => problems.some((problem) => problem.field === field);
    this.render(
      res,
      problems.length ? 400 : 200,
      'console-app-overview.njk',
      viewer,
      app,
      'overview',
      {
        description_text: app.description,
        client_type:
          app.client_type === 'confidential' ? 'Confidential (server-side)' : 'Public (no secret)',
        grant_names: allowed.map((grant) => grant.label),
        created_at: isoMinute(app.created_at),
        action: appPaths(app.client_id).editOverview,
        delete_href: appPaths(app.client_id).delete,
        name: values.name,
        description: values.description,
        developer_name: values.developerName,
        homepage_url: values.homepageUrl,
        privacy_policy_url: values.privacyPolicyUrl,
        logo_url: values.logoUrl,
        grant_choices: choices,
        problems: problems.map((problem) => ({
          message: problem.message,
          href: `#${inputOf(problem.field)}`,
        })),
        invalid: Object.fromEntries(
          [...Object.keys(OVERVIEW_INPUTS), 'grant_types'].map((field) => [field, invalid(field)]),
        ),
        // The shared description and grant partials mark the first refused field they know.
        ...problemContext(
          problems[0] && { message: problems[0].message, field: problems[0].field },
        ),
        first_call: firstCallContext(firstCall, app),
        apis: page.apis.map((api) => ({
          name: api.api,
          title: api.title,
          enabled: api.enabled,
          action: appPaths(app.client_id).api(api.api),
          input_id: `api-${api.api.replace(/[^A-Za-z0-9]+/g, '-')}`,
          next: api.enabled ? 'off' : 'on',
          note: api.byDefault
            ? `${api.enabled ? 'On' : 'Off'} by default`
            : `${api.enabled ? 'Enabled' : 'Disabled'} ${isoMinute(api.changed_at!)}`,
        })),
      },
    );
  }

  redirectUrls(
    res: Response,
    viewer: Viewer,
    page: { app: AppRow; uris: string[]; attempt?: RedirectUrlAttempt },
  ): void {
    const { app, uris, attempt } = page;
    const paths = appPaths(app.client_id);
    const typed = (position: number | 'new', stored: string) =>
      attempt?.position === position ? attempt.value : stored;
    this.render(
      res,
      attempt ? 400 : 200,
      'console-app-redirect-urls.njk',
      viewer,
      app,
      'redirect-urls',
      {
        uris: uris.map((uri, index) => {
          const position = index + 1;
          return {
            position,
            input_id: `redirect-url-${position}`,
            label: `Redirect URL ${position}`,
            value: typed(position, uri),
            invalid: attempt?.position === position,
            has_query: uri.includes('?'),
            action: paths.redirectUrl(position),
            remove_href: paths.removeRedirectUrl(position),
          };
        }),
        max_redirects: MAX_REDIRECT_URIS,
        can_add: uris.length < MAX_REDIRECT_URIS,
        add_action: paths.redirectUrls,
        new_value: typed('new', ''),
        new_invalid: attempt?.position === 'new',
        ...problemContext(attempt?.problem),
      },
    );
  }

  activity(res: Response, viewer: Viewer, page: { app: AppRow; events: AuditEventRow[] }): void {
    this.render(res, 200, 'console-app-activity.njk', viewer, page.app, 'activity', {
      limit: ACTIVITY_LIMIT,
      events: page.events.map((event) => ({
        time: isoSecond(Number(event.occurred_at)),
        what: EVENT_WORDS[event.type] ?? event.type,
        details: shownDetails(event.details),
      })),
    });
  }

  /** Which URL removing this position takes away, with Confirm (a form) and Cancel. */
  confirmRedirectUrlRemoval(
    res: Response,
    viewer: Viewer,
    page: { app: AppRow; position: number; uri: string },
  ): void {
    const paths = appPaths(page.app.client_id);
    this.render(res, 200, 'console-redirect-url-remove.njk', viewer, page.app, null, {
      uri: page.uri,
      label: `Redirect URL ${page.position}`,
      action: paths.removeRedirectUrl(page.position),
      cancel_href: paths.redirectUrls,
    });
  }

  confirmDelete(res: Response, viewer: Viewer, app: AppRow): void {
    this.render(res, 200, 'console-app-delete.njk', viewer, app, null, {
      action: appPaths(app.client_id).delete,
      cancel_href: appPaths(app.client_id).overview,
    });
  }

  private render(
    res: Response,
    status: number,
    template: string,
    viewer: Viewer,
    app: AppRow,
    tab: AppTab | null,
    context: Record<string, unknown>,
  ): void {
    renderConsolePage(res, status, template, viewer, {
      dashboard_href: CONSOLE_PATHS.dashboard,
      app_name: app.name,
      tabs: appTabs(app.client_id, tab),
      ...context,
    });
  }
}

/** The Overview's "first call" section: addresses, employers and ready requests. */
function firstCallContext(firstCall: FirstCall, app: AppRow) {
  const { endpoints } = firstCall;
  return {
    endpoints: [
      ['issuer', 'Issuer', endpoints.issuer],
      ['discovery', 'Discovery document', endpoints.discovery],
      ['authorize', 'Authorization endpoint', endpoints.authorize],
      ['token', 'Token endpoint', endpoints.token],
      ['userinfo', 'Userinfo', endpoints.userinfo],
      ['appinfo', 'Appinfo', endpoints.appinfo],
      ['graphql', 'GraphQL API', endpoints.graphql],
    ].map(([id, label, url]) => ({ id: `endpoint-${id}`, label, url })),
    client_id: app.client_id,
    confidential: app.client_type === 'confidential',
    credentials_href: appPaths(app.client_id).credentials,
    redirect_urls_href: appPaths(app.client_id).redirectUrls,
    employers_href: CONSOLE_PATHS.employers.list,
    employers: firstCall.employers,
    client_credentials: firstCall.clientCredentials,
    allows_code_flow: allowsGrant(app, 'authorization_code'),
    code_flow: firstCall.codeFlow.map((flow, index) => ({
      ...flow,
      number: index + 1,
      authorize_id: `authorize-url-${index + 1}`,
      verifier_id: `code-verifier-${index + 1}`,
      challenge_id: `code-challenge-${index + 1}`,
      exchange_id: `code-exchange-${index + 1}`,
    })),
    graphql: firstCall.graphql,
  };
}

/** The whitelisted details of an event as `Grant: client_credentials` lines. */
function shownDetails(json: string | null): string[] {
  if (!json) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  if (!parsed || typeof parsed !== 'object') return [];
  const details = parsed as Record<string, unknown>;
  return Object.entries(SHOWN_DETAILS).flatMap(([key, label]) => {
    const text = detailText(key, details[key]);
    return text ? [`${label}: ${text}`] : [];
  });
}

/** A detail as text: lists joined, `{from, to}` as `from → to`; empty for anything else. */
function detailText(key: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    const items = value.filter((item): item is string => typeof item === 'string');
    // Changed field names read as words: grant_types → grant types.
    return (key === 'changed' ? items.map((item) => item.replaceAll('_', ' ')) : items).join(', ');
  }
  if (value && typeof value === 'object' && 'from' in value && 'to' in value) {
    const from = detailText(key, value.from) || '(none)';
    const to = detailText(key, value.to) || '(none)';
    return `${from} → ${to}`;
  }
  return '';
}

function isoMinute(epochMs: number): string {
  return `${new Date(Number(epochMs)).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function isoSecond(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
