import type { Accounts } from '../accounts/compose.js';
import type { SharedDependencies } from '../shared-dependencies.js';
import type { DeliveryLog } from './delivery-log.js';
import { DeliveryLogStore } from './delivery-log-store.js';
import { WebhookEndpointService, type TargetedOutbox } from './endpoint-service.js';
import type { EndpointUrlCheck } from './endpoint-url-check.js';
import { checkEndpointUrl } from './ssrf/endpoint-url.js';
import { ManagedEndpointStore } from './managed-endpoint-store.js';
import { StoredWebhookOutbox } from './outbox.js';

/** What the console, the CLI and the management API use to manage an app's webhooks. */
export interface WebhookManagement {
  endpoints: WebhookEndpointService;
}

/**
 * The endpoint management of composeWebhooks: by default the outbox that writes a test event,
 * the stand-in delivery log and the SSRF guard's registration check (src/webhooks/ssrf);
 * composeWebhooks hands in the delivery worker's DeliveryLog.
 */
export function composeWebhookManagement(
  shared: SharedDependencies,
  deps: {
    accounts: Pick<Accounts, 'stores'>;
    outbox?: TargetedOutbox;
    deliveryLog?: DeliveryLog;
    checkUrl?: EndpointUrlCheck;
  },
): WebhookManagement {
  const settings = shared.config.webhooks;
  const employers = deps.accounts.stores.accounts;
  const endpoints = new WebhookEndpointService(
    new ManagedEndpointStore(shared.db),
    deps.outbox ?? new StoredWebhookOutbox(),
    deps.deliveryLog ?? new DeliveryLogStore(shared.db),
    shared.audit,
    shared.boxes.webhookSecrets,
    shared.clock,
    {
      endpointsPerApp: settings.endpointsPerApp,
      employersPerEndpoint: settings.employersPerEndpoint,
      secretOverlapMs: settings.secretOverlapMs,
    },
    deps.checkUrl ??
      ((raw) =>
        checkEndpointUrl(raw, {
          allowPrivateNetworks: settings.allowPrivateNetworks,
          requireHttps: !settings.allowPrivateNetworks,
        })),
    async (ids) => {
      const found = await Promise.all(ids.map((id) => employers.findEmployerById(id)));
      return new Set(found.flatMap((employer) => (employer ? [employer.id] : [])));
    },
  );
  return { endpoints };
}
