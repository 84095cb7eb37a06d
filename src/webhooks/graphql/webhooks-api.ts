import DataLoader from 'dataloader';
import type { ApiAccess, GraphQLApi } from '../../graphql/api.js';
import type { Webhooks } from '../compose.js';
import { WEBHOOKS_API } from './caller.js';
import type { WebhookManagement, WebhooksContextPart } from './context.js';
import { webhookResolvers } from './resolvers/index.js';

/**
 * Every app may use it unless its owner disables it (partners already manage endpoints through
 * it). No scope: it takes the app's own client-credentials token, which may carry none; its
 * resolvers refuse any other kind of token (caller.ts).
 */
export const WEBHOOKS_API_ACCESS: ApiAccess = {
  title: 'Webhook management API',
  scopes: [],
  enabledByDefault: true,
};

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
    access: WEBHOOKS_API_ACCESS,
    resolvers: webhookResolvers,
    createContext: (request) => ({
      webhooks: services,
      // Used only after callingApp has accepted the caller as this app.
      webhookAttempts: new DataLoader(async (deliveryIds: readonly number[]) => {
        const found = await services.deliveryLog.attempts(request.principal.appId, deliveryIds);
        return deliveryIds.map((id) => found.get(id) ?? []);
      }),
    }),
  };
}
