import type { WebhookEndpointRow } from '../../src/db/rows.js';

/**
 * A stored endpoint row for tests that write or fake the webhook tables directly: enabled, every
 * type and every employer, a placeholder instead of a sealed secret unless the test gives one.
 */
export function endpointRow(
  fields: Pick<WebhookEndpointRow, 'id' | 'app_id'> & Partial<WebhookEndpointRow>,
): WebhookEndpointRow {
  return {
    url: 'https://receiver.example/hooks',
    description: null,
    event_types: '',
    employer_ids: '',
    enabled: true,
    disabled_reason: null,
    disabled_at: null,
    secret_sealed: 'sealed',
    previous_secret_sealed: null,
    previous_secret_until: null,
    failing_since: null,
    created_at: 1000,
    updated_at: 1000,
    ...fields,
  };
}
