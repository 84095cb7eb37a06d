import type {
  CreateWebhookEndpointPayloadResolvers,
  DeleteWebhookEndpointPayloadResolvers,
  DisableWebhookEndpointPayloadResolvers,
  EnableWebhookEndpointPayloadResolvers,
  RecoverFailedWebhookDeliveriesPayloadResolvers,
  ResendWebhookDeliveryPayloadResolvers,
  RotateWebhookEndpointSecretPayloadResolvers,
  SendWebhookTestEventPayloadResolvers,
  UpdateWebhookEndpointPayloadResolvers,
} from '../../../../generated/graphql.js';

// Payloads are built whole by the mutations; these read them back.

export const CreateWebhookEndpointPayload: CreateWebhookEndpointPayloadResolvers = {
  endpoint: (payload) => payload.endpoint,
  secret: (payload) => payload.secret,
};
export const UpdateWebhookEndpointPayload: UpdateWebhookEndpointPayloadResolvers = {
  endpoint: (payload) => payload.endpoint,
};
export const RotateWebhookEndpointSecretPayload: RotateWebhookEndpointSecretPayloadResolvers = {
  endpoint: (payload) => payload.endpoint,
  secret: (payload) => payload.secret,
  previousSecretExpiresAt: (payload) => payload.previousSecretExpiresAt,
};
export const EnableWebhookEndpointPayload: EnableWebhookEndpointPayloadResolvers = {
  endpoint: (payload) => payload.endpoint,
};
export const DisableWebhookEndpointPayload: DisableWebhookEndpointPayloadResolvers = {
  endpoint: (payload) => payload.endpoint,
};
export const DeleteWebhookEndpointPayload: DeleteWebhookEndpointPayloadResolvers = {
  deletedEndpointId: (payload) => payload.deletedEndpointId,
};
export const SendWebhookTestEventPayload: SendWebhookTestEventPayloadResolvers = {
  delivery: (payload) => payload.delivery,
};
export const ResendWebhookDeliveryPayload: ResendWebhookDeliveryPayloadResolvers = {
  delivery: (payload) => payload.delivery,
};
export const RecoverFailedWebhookDeliveriesPayload: RecoverFailedWebhookDeliveriesPayloadResolvers =
  {
    recoveredCount: (payload) => payload.recoveredCount,
  };
