import type { QueryResolvers } from '../../../../generated/graphql.js';
import { NotFoundError } from '../../../errors.js';
import { callingApp } from '../caller.js';
import type { WebhooksContext } from '../context.js';
import { endpointPage } from '../pages.js';

/** The webhook-management API's reads (src/apis.ts checks every Query field is resolved). */
export const Query: Pick<
  QueryResolvers<WebhooksContext>,
  'webhookEndpoints' | 'webhookEndpoint'
> = {
  webhookEndpoints: async (_root, page, context) => {
    const appId = callingApp(context);
    return endpointPage(await context.webhooks.endpoints.list(appId), page);
  },
  webhookEndpoint: async (_root, { id }, context) => {
    const appId = callingApp(context);
    try {
      return await context.webhooks.endpoints.get(appId, id);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  },
};
