import type { EpochMs } from '../db/rows.js';
import type { SecretBox } from '../security/secret-box.js';
import type { ClaimedDelivery } from './delivery-store.js';
import { ENVELOPE_CONTENT_TYPE, envelopeJson } from './envelope.js';
import { signDelivery } from './signature.js';

/** Names the sender to receivers and their logs. */
export const WEBHOOK_USER_AGENT = 'hiring-partner-api-webhooks/1';

/**
 * The body and headers of one attempt: the CloudEvents envelope as the outbox row describes it
 * (byte for byte the same on every attempt) and the Standard Webhooks headers for this instant,
 * signed with the endpoint's secret and, while the rotation's overlap lasts, its previous one.
 */
export function signedDelivery(
  claimed: ClaimedDelivery,
  source: string,
  secrets: SecretBox,
  now: EpochMs,
): { body: string; headers: Record<string, string> } {
  const { delivery, endpoint } = claimed;
  const body = envelopeJson({
    messageId: delivery.message_id,
    source,
    type: delivery.type,
    subject: delivery.subject,
    time: delivery.occurred_at,
    sequence: delivery.sequence,
    data: JSON.parse(delivery.data) as Record<string, unknown>,
  });
  const keys = [secrets.open(endpoint.secret_sealed)];
  if (
    endpoint.previous_secret_sealed !== null &&
    endpoint.previous_secret_until !== null &&
    endpoint.previous_secret_until > now
  ) {
    keys.push(secrets.open(endpoint.previous_secret_sealed));
  }
  return {
    body,
    headers: {
      ...signDelivery(delivery.message_id, Math.floor(now / 1000), body, keys),
      'content-type': ENVELOPE_CONTENT_TYPE,
      'user-agent': WEBHOOK_USER_AGENT,
    },
  };
}
