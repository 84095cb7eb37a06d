import type {
  WebhookAttemptResolvers,
  WebhookDeliveriesConnectionResolvers,
  WebhookDeliveryEdgeResolvers,
  WebhookDeliveryResolvers,
  WebhookDeliveryStatus,
  WebhookEndpointEdgeResolvers,
  WebhookEndpointResolvers,
  WebhookEndpointsConnectionResolvers,
} from '../../../../generated/graphql.js';
import type { WebhookDeliveryStatus as StoredStatus } from '../../../db/rows.js';
import { deliveryCursor } from '../../delivery-cursor.js';
import { callingApp } from '../caller.js';
import type { WebhooksContext } from '../context.js';
import { MAX_ATTEMPTS_LISTED, connectionOf, pageSize } from '../pages.js';
import { utc, utcOrNull } from './times.js';

export const WebhookEndpoint: WebhookEndpointResolvers<WebhooksContext> = {
  id: (endpoint) => endpoint.id,
  url: (endpoint) => endpoint.url,
  description: (endpoint) => endpoint.description,
  eventTypes: (endpoint) => endpoint.eventTypes,
  employerIds: (endpoint) => endpoint.employerIds,
  enabled: (endpoint) => endpoint.enabled,
  disabledReason: (endpoint) => endpoint.disabledReason,
  disabledAt: (endpoint) => utcOrNull(endpoint.disabledAt),
  failingSince: (endpoint) => utcOrNull(endpoint.failingSince),
  createdAt: (endpoint) => utc(endpoint.createdAt),
  updatedAt: (endpoint) => utc(endpoint.updatedAt),
  deliveriesConnection: async (endpoint, { first, after, status }, context) => {
    const size = pageSize(first);
    const page = await context.webhooks.endpoints.deliveries(callingApp(context), endpoint.id, {
      first: size,
      after,
      status: status ? STORED_STATUS[status] : undefined,
    });
    const edges = page.deliveries.map((node) => ({ node, cursor: deliveryCursor(node) }));
    return connectionOf(edges, page.nextCursor !== null);
  },
};

export const WebhookEndpointsConnection: WebhookEndpointsConnectionResolvers = {
  edges: (page) => page.edges,
  pageInfo: (page) => page.pageInfo,
  totalCount: (page) => page.totalCount,
};

export const WebhookEndpointEdge: WebhookEndpointEdgeResolvers = {
  node: (edge) => edge.node,
  cursor: (edge) => edge.cursor,
};

export const WebhookDeliveriesConnection: WebhookDeliveriesConnectionResolvers = {
  edges: (page) => page.edges,
  pageInfo: (page) => page.pageInfo,
};

export const WebhookDeliveryEdge: WebhookDeliveryEdgeResolvers = {
  node: (edge) => edge.node,
  cursor: (edge) => edge.cursor,
};

export const WebhookDelivery: WebhookDeliveryResolvers<WebhooksContext> = {
  id: (delivery) => String(delivery.id),
  webhookId: (delivery) => delivery.message_id,
  type: (delivery) => delivery.type,
  subject: (delivery) => delivery.subject,
  sequence: (delivery) => delivery.sequence,
  status: (delivery) => SHOWN_STATUS[delivery.status],
  attemptCount: (delivery) => delivery.attempt_count,
  nextAttemptAt: (delivery) => utc(delivery.next_attempt_at),
  lastAttemptAt: (delivery) => utcOrNull(delivery.last_attempt_at),
  lastStatusCode: (delivery) => delivery.last_status_code,
  deliveredAt: (delivery) => utcOrNull(delivery.delivered_at),
  createdAt: (delivery) => utc(delivery.created_at),
  attempts: async (delivery, _args, context) => {
    callingApp(context);
    const attempts = await context.webhookAttempts.load(delivery.id);
    return attempts.slice(-MAX_ATTEMPTS_LISTED);
  },
};

// Attempt rows come as the database gives them: PostgreSQL's bigints as strings.
export const WebhookAttempt: WebhookAttemptResolvers = {
  attemptedAt: (attempt) => utc(Number(attempt.attempted_at)),
  statusCode: (attempt) => numberOrNull(attempt.status_code),
  latencyMs: (attempt) => Number(attempt.latency_ms),
  responseExcerpt: (attempt) => attempt.response_excerpt,
  error: (attempt) => attempt.error,
};

const SHOWN_STATUS: Record<StoredStatus, WebhookDeliveryStatus> = {
  pending: 'PENDING',
  delivered: 'DELIVERED',
  failed: 'FAILED',
};

const STORED_STATUS: Record<WebhookDeliveryStatus, StoredStatus> = {
  PENDING: 'pending',
  DELIVERED: 'delivered',
  FAILED: 'failed',
};

function numberOrNull(value: number | null): number | null {
  return value === null ? null : Number(value);
}
