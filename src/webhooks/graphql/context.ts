import type DataLoader from 'dataloader';
import type { WebhookAttemptRow } from '../../db/rows.js';
import type { GatewayContext } from '../../graphql/api.js';
import type { DeliveryLog } from '../delivery-log.js';
import type { WebhookEndpointService } from '../endpoint-service.js';

/** What the webhook-management API adds to the gateway's context of each request. */
export type WebhooksContextPart = {
  webhooks: WebhookManagement;
  /**
   * The attempts of the calling app's deliveries by delivery id, read together for every
   * delivery of one answer (a page lists up to 100) instead of one read each.
   */
  webhookAttempts: DataLoader<number, WebhookAttemptRow[]>;
};

/** The services the API's resolvers call; shared by all requests. */
export type WebhookManagement = {
  endpoints: WebhookEndpointService;
  deliveryLog: Pick<DeliveryLog, 'attempts'>;
};

/** Per-request context of the webhook-management API's resolvers (a `type`, like the gateway's). */
export type WebhooksContext = GatewayContext & WebhooksContextPart;
