import type { WebhookEndpointRow } from '../db/rows.js';
import { EndpointStore, normalised } from './endpoint-store.js';

/** The columns the management surfaces change (the health columns are the delivery worker's). */
export type EndpointChange = Partial<
  Pick<
    WebhookEndpointRow,
    | 'url'
    | 'description'
    | 'event_types'
    | 'employer_ids'
    | 'enabled'
    | 'disabled_reason'
    | 'disabled_at'
    | 'secret_sealed'
    | 'previous_secret_sealed'
    | 'previous_secret_until'
    | 'failing_since'
  >
> &
  Pick<WebhookEndpointRow, 'updated_at'>;

/** SQL for the endpoint management of the console, the CLI and the API. */
export class ManagedEndpointStore extends EndpointStore {
  /** Makes creations take turns, so that a per-app count read next stays true until commit. */
  lockCreations(): Promise<void> {
    return this.serializeOn('webhook_endpoints');
  }

  async countForApp(appId: string): Promise<number> {
    const [row] = await this.db('webhook_endpoints').where({ app_id: appId }).count({ count: '*' });
    return Number(row?.count ?? 0);
  }

  /** The app's endpoints, oldest first. */
  async listForApp(appId: string): Promise<WebhookEndpointRow[]> {
    const rows: WebhookEndpointRow[] = await this.db('webhook_endpoints')
      .where({ app_id: appId })
      .orderBy([
        { column: 'created_at', order: 'asc' },
        { column: 'id', order: 'asc' },
      ]);
    return rows.map((row) => normalised(row)!);
  }

  /** The endpoint, its row locked until this write transaction ends. */
  async findLocked(appId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    return normalised(
      await this.forUpdate(this.db('webhook_endpoints').where({ app_id: appId, id })).first(),
    );
  }

  /** True when the app has this endpoint and it changed. */
  async change(appId: string, id: string, change: EndpointChange): Promise<boolean> {
    return (await this.db('webhook_endpoints').where({ app_id: appId, id }).update(change)) === 1;
  }

  /** True when the app had this endpoint; its deliveries and attempts go with it. */
  async delete(appId: string, id: string): Promise<boolean> {
    return (await this.db('webhook_endpoints').where({ app_id: appId, id }).delete()) === 1;
  }
}
