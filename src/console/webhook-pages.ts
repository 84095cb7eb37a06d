import type { Response } from 'express';
import type { EmployerMembership } from '../accounts/account-store.js';
import type { AppRow, WebhookAttemptRow, WebhookDeliveryRow } from '../db/rows.js';
import type { FieldProblem } from '../errors.js';
import type { DeliveryPage } from '../webhooks/delivery-log.js';
import type { EndpointView } from '../webhooks/endpoint-service.js';
import { SUBSCRIBABLE_EVENT_TYPES } from '../webhooks/event-types.js';
import { appTabs } from './app-tabs.js';
import { renderConsolePage, type Viewer } from './pages.js';
import { CONSOLE_PATHS, appPaths } from './paths.js';

/** What the owner typed into an endpoint form, shown again when it is refused. */
export interface EndpointValues {
  url: string;
  description: string;
  eventTypes: readonly string[];
  employerIds: readonly string[];
}

/** The input each field of the endpoint form is typed into, for the error summary's links. */
const ENDPOINT_INPUTS: Record<string, string> = {
  url: 'endpoint-url',
  description: 'endpoint-description',
  event_types: `event-type-${SUBSCRIBABLE_EVENT_TYPES[0]!.replace(/\W+/g, '-')}`,
  employer_ids: 'employer-filter',
  endpoints: 'endpoint-url',
};

const STATUS_WORDS: Record<WebhookDeliveryRow['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** The Webhooks tab of an app: its endpoints, one endpoint with its delivery log, one delivery. */
export class WebhookPages {
  list(
    res: Response,
    viewer: Viewer,
    page: {
      app: AppRow;
      endpoints: EndpointView[];
      employers: EmployerMembership[];
      maxEndpoints: number;
      values?: EndpointValues;
      problems?: readonly FieldProblem[];
    },
  ): void {
    const { app, endpoints, problems = [] } = page;
    const paths = appPaths(app.client_id);
    const values = page.values ?? { url: '', description: '', eventTypes: [], employerIds: [] };
    render(res, problems.length ? 400 : 200, 'console-app-webhooks.njk', viewer, app, {
      endpoints: endpoints.map((endpoint) => ({
        url: endpoint.url,
        href: paths.webhook(endpoint.id).detail,
        description: endpoint.description,
        events: filterText(endpoint.eventTypes, 'All event types'),
        employers: employerText(endpoint.employerIds, page.employers),
        state: stateText(endpoint),
        enabled: endpoint.enabled,
      })),
      can_add: endpoints.length < page.maxEndpoints,
      max_endpoints: page.maxEndpoints,
      add_action: paths.webhooks,
      ...formContext(values, page.employers, problems),
    });
  }

  endpoint(
    res: Response,
    viewer: Viewer,
    page: {
      app: AppRow;
      endpoint: EndpointView;
      employers: EmployerMembership[];
      deliveries: DeliveryPage;
      /** Only on the one view right after creation or rotation. */
      secret?: string;
      values?: EndpointValues;
      problems?: readonly FieldProblem[];
      /** A refused action (test, recover, ...) rather than a refused edit. */
      actionError?: string;
      now: number;
    },
  ): void {
    const { app, endpoint, problems = [] } = page;
    const paths = appPaths(app.client_id).webhook(endpoint.id);
    const values = page.values ?? {
      url: endpoint.url,
      description: endpoint.description ?? '',
      eventTypes: endpoint.eventTypes,
      employerIds: endpoint.employerIds,
    };
    res.setHeader('Cache-Control', 'no-store');
    const status = problems.length || page.actionError ? 400 : 200;
    render(res, status, 'console-webhook-endpoint.njk', viewer, app, {
      webhooks_href: appPaths(app.client_id).webhooks,
      endpoint_url: endpoint.url,
      description_text: endpoint.description,
      events: filterText(endpoint.eventTypes, 'All event types'),
      employers: employerText(endpoint.employerIds, page.employers),
      state: stateText(endpoint),
      enabled: endpoint.enabled,
      failing_since: endpoint.failingSince ? isoSecond(endpoint.failingSince) : null,
      created_at: isoMinute(endpoint.createdAt),
      previous_secret_until:
        endpoint.previousSecretUntil && endpoint.previousSecretUntil > page.now
          ? isoMinute(endpoint.previousSecretUntil)
          : null,
      secret: page.secret ?? null,
      rotate_action: paths.rotate,
      test_action: paths.test,
      enable_action: paths.enable,
      disable_action: paths.disable,
      delete_href: paths.delete,
      recover_action: paths.recover,
      recover_since: new Date(page.now - 86_400_000).toISOString().slice(0, 16),
      edit_action: paths.detail,
      action_error: page.actionError ?? null,
      deliveries: page.deliveries.deliveries.map((delivery) => ({
        ...deliveryContext(delivery),
        href: paths.delivery(delivery.id),
      })),
      next_page_href: page.deliveries.nextCursor
        ? `${paths.detail}?after=${encodeURIComponent(page.deliveries.nextCursor)}#delivery-log`
        : null,
      ...formContext(values, page.employers, problems),
    });
  }

  delivery(
    res: Response,
    viewer: Viewer,
    page: {
      app: AppRow;
      endpoint: EndpointView;
      delivery: WebhookDeliveryRow;
      attempts: WebhookAttemptRow[];
      error?: string;
    },
  ): void {
    const { app, endpoint, delivery } = page;
    const paths = appPaths(app.client_id).webhook(endpoint.id);
    render(res, page.error ? 400 : 200, 'console-webhook-delivery.njk', viewer, app, {
      endpoint_href: paths.detail,
      endpoint_url: endpoint.url,
      delivery: {
        ...deliveryContext(delivery),
        message_id: delivery.message_id,
        subject: delivery.subject,
        next_attempt_at:
          delivery.status === 'pending' ? isoSecond(Number(delivery.next_attempt_at)) : null,
      },
      attempts: page.attempts.map((attempt) => ({
        time: isoSecond(Number(attempt.attempted_at)),
        outcome:
          attempt.status_code === null
            ? `No answer${attempt.error ? `: ${attempt.error}` : ''}`
            : String(attempt.status_code),
        latency: `${attempt.latency_ms} ms`,
        excerpt: attempt.response_excerpt ?? '',
      })),
      resend_action: paths.resend(delivery.id),
      can_resend: endpoint.enabled,
      error: page.error ?? null,
    });
  }

  confirmDelete(res: Response, viewer: Viewer, page: { app: AppRow; endpoint: EndpointView }) {
    const paths = appPaths(page.app.client_id).webhook(page.endpoint.id);
    render(res, 200, 'console-webhook-delete.njk', viewer, page.app, {
      endpoint_url: page.endpoint.url,
      action: paths.delete,
      cancel_href: paths.detail,
    });
  }
}

function render(
  res: Response,
  status: number,
  template: string,
  viewer: Viewer,
  app: AppRow,
  context: Record<string, unknown>,
): void {
  renderConsolePage(res, status, template, viewer, {
    dashboard_href: CONSOLE_PATHS.dashboard,
    app_name: app.name,
    tabs: appTabs(app.client_id, 'webhooks'),
    ...context,
  });
}

/** The endpoint form's inputs: the typed values, the choices ticked, the refusals. */
function formContext(
  values: EndpointValues,
  employers: EmployerMembership[],
  problems: readonly FieldProblem[],
) {
  const known = new Set(employers.map((membership) => membership.employer.id));
  // An employer the filter names that the owner no longer belongs to stays offered, ticked.
  const others = values.employerIds.filter((id) => !known.has(id));
  return {
    url: values.url,
    description: values.description,
    event_type_choices: SUBSCRIBABLE_EVENT_TYPES.map((type) => ({
      value: type,
      input_id: `event-type-${type.replace(/\W+/g, '-')}`,
      checked: values.eventTypes.includes(type),
    })),
    employer_choices: [
      ...employers.map((membership) => ({
        value: membership.employer.id,
        label: membership.employer.name,
        checked: values.employerIds.includes(membership.employer.id),
      })),
      ...others.map((id) => ({ value: id, label: id, checked: true })),
    ].map((choice, index) => ({ ...choice, input_id: `employer-filter-${index + 1}` })),
    problems: problems.map((problem) => ({
      message: problem.message,
      href: `#${ENDPOINT_INPUTS[problem.field] ?? 'endpoint-url'}`,
    })),
    invalid: Object.fromEntries(
      Object.keys(ENDPOINT_INPUTS).map((field) => [
        field,
        problems.some((problem) => problem.field === field),
      ]),
    ),
  };
}

function deliveryContext(delivery: WebhookDeliveryRow) {
  return {
    id: delivery.id,
    time: isoSecond(Number(delivery.created_at)),
    type: delivery.type,
    status: STATUS_WORDS[delivery.status] ?? delivery.status,
    status_class: `delivery-${delivery.status}`,
    attempts: Number(delivery.attempt_count),
    last_status: delivery.last_status_code === null ? '—' : String(delivery.last_status_code),
    last_attempt_at: delivery.last_attempt_at ? isoSecond(Number(delivery.last_attempt_at)) : '—',
  };
}

/** "Enabled", "Disabled: answered 410 Gone (since …)". */
function stateText(endpoint: EndpointView): string {
  if (endpoint.enabled) {
    return endpoint.failingSince
      ? `Enabled; every attempt has failed since ${isoMinute(endpoint.failingSince)}`
      : 'Enabled';
  }
  const reason = endpoint.disabledReason ?? 'disabled';
  const since = endpoint.disabledAt ? ` (since ${isoMinute(endpoint.disabledAt)})` : '';
  return `Disabled: ${reason}${since}`;
}

function filterText(values: readonly string[], all: string): string {
  return values.length ? values.join(', ') : all;
}

function employerText(ids: readonly string[], employers: EmployerMembership[]): string {
  if (!ids.length) return 'All employers';
  const names = new Map(employers.map((m) => [m.employer.id, m.employer.name]));
  return ids.map((id) => names.get(id) ?? id).join(', ');
}

function isoMinute(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function isoSecond(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
