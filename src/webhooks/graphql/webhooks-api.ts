import type { GraphQLApi } from '../../graphql/api.js';
import type { Webhooks } from '../compose.js';
import { WEBHOOKS_API } from './caller.js';
import type { WebhookManagement, WebhooksContextPart } from './context.js';
import { webhookResolvers } from './resolvers/index.js';

/**
 * The webhook-management API behind the gateway (DESIGN §8, §9): schema/webhooks.graphql and its
 * resolvers, over the same endpoint service as the console and the CLI.
 */
export function webhooksApi(
  webhooks: Pick<Webhooks, 'endpoints' | 'deliveryLog'>,
): GraphQLApi<WebhooksContextPart, typeof webhookResolvers> {
  const services: WebhookManagement = {
    endpoints: webhooks.endpoints,
    deliveryLog: webhooks.deliveryLog,
  };
  return {
    name: WEBHOOKS_API,
    resolvers: webhookResolvers,
    createContext: () => ({ webhooks: services }),
  };
}
