import type { WebhookEndpointRow } from '../db/rows.js';
import { Store } from '../db/store.js';

/** SQL for webhook_endpoints: the endpoints each app registered. */
export class EndpointStore extends Store {
  async insert(row: WebhookEndpointRow): Promise<void> {
    await this.db('webhook_endpoints').insert(row);
  }

  async find(appId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    return normalised(await this.db('webhook_endpoints').where({ app_id: appId, id }).first());
  }

  async findById(id: string): Promise<WebhookEndpointRow | undefined> {
    return normalised(await this.db('webhook_endpoints').where({ id }).first());
  }
}

/** SQLite stores booleans as 0 and 1. */
export function normalised(row: WebhookEndpointRow | undefined): WebhookEndpointRow | undefined {
  return row && { ...row, enabled: Boolean(row.enabled) };
}
