import type { ListItems } from '../../graphql/api.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './pages.js';

/** Attempts of one delivery an answer lists at most: the latest ones (WebhookDelivery.attempts). */
export const MAX_ATTEMPTS_LISTED = 100;

const page: ListItems = ({ first }) =>
  typeof first === 'number' ? Math.min(Math.max(first, 0), MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
const attempts: ListItems = () => MAX_ATTEMPTS_LISTED;

/**
 * How many items the webhook-management API's lists hold, for the gateway's cost model, by the
 * schema coordinate of the field that returns the list's parent (as src/interviews/list-items.ts).
 * Each is a bound the resolvers enforce: pages refuse `first` above 100, and a delivery lists at
 * most its latest MAX_ATTEMPTS_LISTED attempts.
 */
export const WEBHOOK_LIST_ITEMS: ReadonlyMap<string, ListItems> = new Map<string, ListItems>([
  ['Query.webhookEndpoints', page],
  ['WebhookEndpoint.deliveriesConnection', page],
  ['WebhookDeliveryEdge.node', attempts],
  ['SendWebhookTestEventPayload.delivery', attempts],
  ['ResendWebhookDeliveryPayload.delivery', attempts],
]);
