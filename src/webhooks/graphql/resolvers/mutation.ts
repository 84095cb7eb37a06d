import type { MutationResolvers } from '../../../../generated/graphql.js';
import { NotFoundError } from '../../../errors.js';
import { actorOf, callingApp } from '../caller.js';
import type { WebhooksContext } from '../context.js';
import { utcOrNull } from './times.js';

type WebhookMutations =
  | 'createWebhookEndpoint'
  | 'updateWebhookEndpoint'
  | 'rotateWebhookEndpointSecret'
  | 'enableWebhookEndpoint'
  | 'disableWebhookEndpoint'
  | 'deleteWebhookEndpoint'
  | 'sendWebhookTestEvent'
  | 'resendWebhookDelivery'
  | 'recoverFailedWebhookDeliveries';

/**
 * The webhook-management API's changes: each calls the same service as the console and the CLI,
 * for the calling app, audited with the app as its actor.
 */
export const Mutation: Pick<MutationResolvers<WebhooksContext>, WebhookMutations> = {
  createWebhookEndpoint: async (_root, { input }, context) =>
    context.webhooks.endpoints.create(
      callingApp(context),
      {
        url: input.url,
        description: input.description,
        eventTypes: input.eventTypes ?? [],
        employerIds: input.employerIds ?? [],
      },
      actorOf(context),
    ),
  updateWebhookEndpoint: async (_root, { input }, context) => ({
    // A field left out (or null) keeps its value, read under the update's own lock.
    endpoint: await context.webhooks.endpoints.update(
      callingApp(context),
      input.id,
      {
        url: input.url ?? undefined,
        description: input.description ?? undefined,
        eventTypes: input.eventTypes ?? undefined,
        employerIds: input.employerIds ?? undefined,
      },
      actorOf(context),
    ),
  }),
  rotateWebhookEndpointSecret: async (_root, { input }, context) => {
    const { endpoint, secret } = await context.webhooks.endpoints.rotateSecret(
      callingApp(context),
      input.id,
      actorOf(context),
    );
    return { endpoint, secret, previousSecretExpiresAt: utcOrNull(endpoint.previousSecretUntil) };
  },
  enableWebhookEndpoint: async (_root, { input }, context) => ({
    endpoint: await context.webhooks.endpoints.enable(
      callingApp(context),
      input.id,
      actorOf(context),
    ),
  }),
  disableWebhookEndpoint: async (_root, { input }, context) => ({
    endpoint: await context.webhooks.endpoints.disable(
      callingApp(context),
      input.id,
      actorOf(context),
    ),
  }),
  deleteWebhookEndpoint: async (_root, { input }, context) => {
    const deleted = await context.webhooks.endpoints.remove(
      callingApp(context),
      input.id,
      actorOf(context),
    );
    return { deletedEndpointId: deleted.id };
  },
  sendWebhookTestEvent: async (_root, { input }, context) => ({
    delivery:
      (await context.webhooks.endpoints.sendTest(
        callingApp(context),
        input.id,
        actorOf(context),
      )) ?? null,
  }),
  resendWebhookDelivery: async (_root, { input }, context) => ({
    delivery: await context.webhooks.endpoints.resend(
      callingApp(context),
      deliveryIdOf(input.deliveryId),
      actorOf(context),
    ),
  }),
  recoverFailedWebhookDeliveries: async (_root, { input }, context) => ({
    recoveredCount: await context.webhooks.endpoints.recoverFailed(
      callingApp(context),
      input.endpointId,
      input.since.epochMs,
      actorOf(context),
    ),
  }),
};

/** A delivery id is a whole number; anything else names no delivery. */
function deliveryIdOf(id: string): number {
  if (!/^[1-9]\d{0,15}$/.test(id)) {
    throw new NotFoundError(
      `no webhook delivery with id ${JSON.stringify(id.slice(0, 64))}`,
      'delivery_id',
    );
  }
  return Number(id);
}
