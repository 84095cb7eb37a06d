import { Option, type Command } from 'commander';
import type { WebhookAttemptRow, WebhookDeliveryRow } from '../db/rows.js';
import { ValidationError } from '../errors.js';
import type { EndpointView } from '../webhooks/endpoint-service.js';
import { SUBSCRIBABLE_EVENT_TYPES } from '../webhooks/event-types.js';
import type { CliServices } from './services.js';

type Print = (data: object, lines: () => string[]) => void;

const collect = (value: string, previous: string[]) => [...previous, value];

/**
 * `webhook add|list|rotate|test|deliveries|attempts|resend|recover|enable|disable|remove`: an
 * app's webhook endpoints, by its client id, through the same service as the console (audited,
 * without an actor). Secrets are printed once, by add and rotate.
 */
export function addWebhookCommands(
  program: Command,
  services: () => Promise<CliServices>,
  print: Print,
): void {
  const webhook = program.command('webhook').description("an app's webhook endpoints");
  const appOption = () =>
    new Option('--app <client_id>', 'client_id of the app').makeOptionMandatory();
  const endpointOption = () =>
    new Option('--endpoint <id>', 'id of the endpoint (see webhook list)').makeOptionMandatory();
  const deliveryOption = () =>
    new Option('--delivery <id>', 'id of the delivery (see webhook deliveries)')
      .makeOptionMandatory()
      .argParser(deliveryIdOf);

  /** The service and the app's id, by client id. */
  async function forApp(clientId: string) {
    const { webhooks } = await services();
    return { endpoints: webhooks.endpoints, appId: await webhooks.appIdOf(clientId) };
  }

  webhook
    .command('add')
    .description('register an endpoint; prints its signing secret once')
    .addOption(appOption())
    .requiredOption('--url <url>', 'where events are POSTed (https)')
    .option(
      '--type <type>',
      `an event type it receives (repeatable; default every type): ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`,
      collect,
      [],
    )
    .option(
      '--employer <id>',
      'an employer whose events it receives (repeatable; default all)',
      collect,
      [],
    )
    .option('--description <text>', 'what receives these events')
    .action(
      async (options: {
        app: string;
        url: string;
        type: string[];
        employer: string[];
        description?: string;
      }) => {
        const { endpoints, appId } = await forApp(options.app);
        const { endpoint, secret } = await endpoints.create(appId, {
          url: options.url,
          description: options.description,
          eventTypes: options.type,
          employerIds: options.employer,
        });
        print({ endpoint: describeEndpoint(endpoint), secret }, () => [
          `Added webhook endpoint ${endpoint.id}`,
          ...endpointLines(endpoint),
          `  secret:      ${secret}`,
          '  (the secret is shown only now; store it safely)',
        ]);
      },
    );

  webhook
    .command('list')
    .description("list the app's endpoints (never their secrets)")
    .addOption(appOption())
    .action(async (options: { app: string }) => {
      const { endpoints, appId } = await forApp(options.app);
      const listed = await endpoints.list(appId);
      print({ endpoints: listed.map(describeEndpoint) }, () =>
        listed.length
          ? listed.flatMap((endpoint) => [endpoint.id, ...endpointLines(endpoint)])
          : ['No webhook endpoints.'],
      );
    });

  webhook
    .command('rotate')
    .description(
      'give the endpoint a new signing secret, printed once; the previous one keeps signing ' +
        'beside it for WEBHOOK_SECRET_OVERLAP_HOURS',
    )
    .addOption(appOption())
    .addOption(endpointOption())
    .action(async (options: { app: string; endpoint: string }) => {
      const { endpoints, appId } = await forApp(options.app);
      const { endpoint, secret } = await endpoints.rotateSecret(appId, options.endpoint);
      print({ endpoint: describeEndpoint(endpoint), secret }, () => [
        `Rotated the signing secret of ${endpoint.id}`,
        `  secret: ${secret}`,
        '  (the secret is shown only now; store it safely)',
        ...(endpoint.previousSecretUntil
          ? [`  the previous secret also signs until ${iso(endpoint.previousSecretUntil)}`]
          : []),
      ]);
    });

  webhook
    .command('test')
    .description('queue a webhook.test.v1 delivery to the endpoint, whatever its filters')
    .addOption(appOption())
    .addOption(endpointOption())
    .action(async (options: { app: string; endpoint: string }) => {
      const { endpoints, appId } = await forApp(options.app);
      const delivery = await endpoints.sendTest(appId, options.endpoint);
      print({ delivery: delivery ? describeDelivery(delivery) : null }, () => [
        `Queued a test event to ${options.endpoint}`,
        ...(delivery ? [deliveryLine(delivery)] : []),
      ]);
    });

  webhook
    .command('deliveries')
    .description("list the endpoint's deliveries, newest first")
    .addOption(appOption())
    .addOption(endpointOption())
    .addOption(
      new Option('--status <status>', 'only these').choices(['pending', 'delivered', 'failed']),
    )
    .option('--first <count>', 'how many (1 to 100)', '20')
    .option('--after <cursor>', 'the next_cursor of the previous page')
    .action(
      async (options: {
        app: string;
        endpoint: string;
        status?: WebhookDeliveryRow['status'];
        first: string;
        after?: string;
      }) => {
        const { endpoints, appId } = await forApp(options.app);
        const page = await endpoints.deliveries(appId, options.endpoint, {
          first: /^\d{1,3}$/.test(options.first) ? Number(options.first) : Number.NaN,
          after: options.after,
          status: options.status,
        });
        print(
          { deliveries: page.deliveries.map(describeDelivery), next_cursor: page.nextCursor },
          () => [
            ...(page.deliveries.length ? page.deliveries.map(deliveryLine) : ['No deliveries.']),
            ...(page.nextCursor ? [`(more: --after ${page.nextCursor})`] : []),
          ],
        );
      },
    );

  webhook
    .command('attempts')
    .description('show one delivery with every attempt (status, latency, answer excerpt)')
    .addOption(appOption())
    .addOption(deliveryOption())
    .action(async (options: { app: string; delivery: number }) => {
      const { endpoints, appId } = await forApp(options.app);
      const { delivery, attempts } = await endpoints.delivery(appId, options.delivery);
      print(
        { delivery: describeDelivery(delivery), attempts: attempts.map(describeAttempt) },
        () => [
          deliveryLine(delivery),
          ...(attempts.length ? attempts.map(attemptLine) : ['  no attempt yet']),
        ],
      );
    });

  webhook
    .command('resend')
    .description('send one delivery again at once, with the same webhook-id')
    .addOption(appOption())
    .addOption(deliveryOption())
    .action(async (options: { app: string; delivery: number }) => {
      const { endpoints, appId } = await forApp(options.app);
      const delivery = await endpoints.resend(appId, options.delivery);
      print({ delivery: describeDelivery(delivery) }, () => [
        `Queued delivery ${delivery.id} again`,
        deliveryLine(delivery),
      ]);
    });

  webhook
    .command('recover')
    .description('queue again every failed delivery of the endpoint made since a time')
    .addOption(appOption())
    .addOption(endpointOption())
    .requiredOption('--since <time>', 'ISO 8601 time, e.g. 2026-11-01T00:00:00Z')
    .action(async (options: { app: string; endpoint: string; since: string }) => {
      const { endpoints, appId } = await forApp(options.app);
      const since = timeOf(options.since);
      const recovered = await endpoints.recoverFailed(appId, options.endpoint, since);
      print({ recovered, since: iso(since) }, () => [
        `Queued ${recovered} failed deliver${recovered === 1 ? 'y' : 'ies'} again`,
      ]);
    });

  for (const [name, description] of [
    ['enable', 'deliver to the endpoint again (forgets the failures that disabled it)'],
    ['disable', 'stop delivering to the endpoint until it is enabled'],
    ['remove', 'delete the endpoint with its deliveries'],
  ] as const) {
    webhook
      .command(name)
      .description(description)
      .addOption(appOption())
      .addOption(endpointOption())
      .action(async (options: { app: string; endpoint: string }) => {
        const { endpoints, appId } = await forApp(options.app);
        const change = {
          enable: () => endpoints.enable(appId, options.endpoint),
          disable: () => endpoints.disable(appId, options.endpoint),
          remove: () => endpoints.remove(appId, options.endpoint),
        }[name];
        const endpoint = await change();
        const done = { enable: 'Enabled', disable: 'Disabled', remove: 'Removed' }[name];
        print(
          { endpoint: describeEndpoint(endpoint), ...(name === 'remove' && { removed: true }) },
          () => [`${done} webhook endpoint ${endpoint.id}`],
        );
      });
  }
}

function describeEndpoint(endpoint: EndpointView) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    employer_ids: endpoint.employerIds,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    disabled_at: endpoint.disabledAt,
    failing_since: endpoint.failingSince === null ? null : iso(endpoint.failingSince),
    previous_secret_until:
      endpoint.previousSecretUntil === null ? null : iso(endpoint.previousSecretUntil),
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

function endpointLines(endpoint: EndpointView): string[] {
  const state = endpoint.enabled
    ? 'enabled'
    : `disabled (${endpoint.disabledReason ?? 'no reason recorded'})`;
  return [
    `  url:         ${endpoint.url}`,
    `  state:       ${state}`,
    `  types:       ${endpoint.eventTypes.join(', ') || 'every type'}`,
    `  employers:   ${endpoint.employerIds.join(', ') || 'every employer'}`,
    ...(endpoint.description ? [`  description: ${endpoint.description}`] : []),
  ];
}

function describeDelivery(delivery: WebhookDeliveryRow) {
  return {
    id: delivery.id,
    webhook_id: delivery.message_id,
    endpoint_id: delivery.endpoint_id,
    type: delivery.type,
    subject: delivery.subject,
    sequence: delivery.sequence,
    status: delivery.status,
    attempts: delivery.attempt_count,
    last_status_code: delivery.last_status_code,
    last_attempt_at: delivery.last_attempt_at,
    next_attempt_at: delivery.status === 'pending' ? delivery.next_attempt_at : null,
    delivered_at: delivery.delivered_at,
    created_at: delivery.created_at,
  };
}

function deliveryLine(delivery: WebhookDeliveryRow): string {
  return (
    `${delivery.id}  ${iso(delivery.created_at)}  ${delivery.type}  ${delivery.status}` +
    `  attempts ${delivery.attempt_count}  last ${delivery.last_status_code ?? '-'}`
  );
}

function describeAttempt(attempt: WebhookAttemptRow) {
  return {
    attempted_at: attempt.attempted_at,
    status_code: attempt.status_code,
    latency_ms: attempt.latency_ms,
    response_excerpt: attempt.response_excerpt,
    error: attempt.error,
  };
}

function attemptLine(attempt: WebhookAttemptRow): string {
  const answer = attempt.status_code ?? `no answer (${attempt.error ?? 'unknown'})`;
  return `  ${iso(attempt.attempted_at)}  ${answer}  ${attempt.latency_ms} ms`;
}

function deliveryIdOf(value: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) {
    throw new ValidationError(`no webhook delivery with id ${value}`, 'delivery');
  }
  return Number(value);
}

function timeOf(value: string): number {
  const time = /^\d{4}-\d\d-\d\d/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(time)) {
    throw new ValidationError(`--since must be an ISO 8601 time, not ${value}`, 'since');
  }
  return time;
}

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
