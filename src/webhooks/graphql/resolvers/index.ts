import type { ApiResolvers } from '../../../graphql/api.js';
import type { WebhooksContext } from '../context.js';
import { Mutation } from './mutation.js';
import * as payloads from './payloads.js';
import { Query } from './query.js';
import * as types from './types.js';

/**
 * Every resolver of the webhook-management API (schema/webhooks.graphql), typed by the generated
 * resolvers in which every field is mandatory.
 */
export const webhookResolvers = {
  Query,
  Mutation,
  ...types,
  ...payloads,
} satisfies ApiResolvers<WebhooksContext>;
