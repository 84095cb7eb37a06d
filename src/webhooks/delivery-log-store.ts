import type { EpochMs, WebhookAttemptRow, WebhookDeliveryRow } from '../db/rows.js';
import { Store } from '../db/store.js';
import { ValidationError } from '../errors.js';
import type { DeliveryLog, DeliveryPage } from './delivery-log.js';

/**
 * A DeliveryLog over webhook_deliveries and webhook_attempts, for the management surfaces until
 * the delivery worker's store (which owns these rows) provides one; then that one replaces it.
 */
export class DeliveryLogStore extends Store implements DeliveryLog {
  async list(
    appId: string,
    endpointId: string,
    page: { first: number; after?: string | null; status?: WebhookDeliveryRow['status'] },
  ): Promise<DeliveryPage> {
    const query = this.db('webhook_deliveries')
      .where({ app_id: appId, endpoint_id: endpointId })
      .orderBy('id', 'desc')
      .limit(page.first + 1);
    if (page.status) query.andWhere({ status: page.status });
    if (page.after) query.andWhere('id', '<', cursorId(page.after));
    const rows = (await query).map(deliveryOf);
    const more = rows.length > page.first;
    const deliveries = rows.slice(0, page.first);
    return { deliveries, nextCursor: more ? String(deliveries.at(-1)!.id) : null };
  }

  async find(appId: string, deliveryId: number): Promise<WebhookDeliveryRow | undefined> {
    const row = await this.db('webhook_deliveries')
      .where({ app_id: appId, id: deliveryId })
      .first();
    return row && deliveryOf(row);
  }

  async attempts(appId: string, deliveryId: number): Promise<WebhookAttemptRow[]> {
    const rows: WebhookAttemptRow[] = await this.db('webhook_attempts as a')
      .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .where({ 'd.app_id': appId, 'a.delivery_id': deliveryId })
      .orderBy([
        { column: 'a.attempted_at', order: 'asc' },
        { column: 'a.id', order: 'asc' },
      ])
      .select('a.*');
    return rows.map((row) => ({
      ...row,
      id: Number(row.id),
      delivery_id: Number(row.delivery_id),
      attempted_at: Number(row.attempted_at),
      status_code: row.status_code === null ? null : Number(row.status_code),
      latency_ms: Number(row.latency_ms),
    }));
  }

  async resend(
    appId: string,
    deliveryId: number,
    now: EpochMs,
  ): Promise<WebhookDeliveryRow | undefined> {
    await this.db('webhook_deliveries')
      .where({ app_id: appId, id: deliveryId })
      .update({ status: 'pending', next_attempt_at: now, leased_until: null });
    return this.find(appId, deliveryId);
  }

  async recoverFailed(
    appId: string,
    endpointId: string,
    since: EpochMs,
    now: EpochMs,
  ): Promise<number> {
    return this.db('webhook_deliveries')
      .where({ app_id: appId, endpoint_id: endpointId, status: 'failed' })
      .andWhere('created_at', '>=', since)
      .update({ status: 'pending', attempt_count: 0, next_attempt_at: now, leased_until: null });
  }
}

function cursorId(cursor: string): number {
  if (!/^[1-9]\d{0,15}$/.test(cursor))
    throw new ValidationError('the cursor is not valid', 'after');
  return Number(cursor);
}

/** PostgreSQL returns bigint columns as text. */
function deliveryOf(row: WebhookDeliveryRow): WebhookDeliveryRow {
  const numberOrNull = (value: number | null) => (value === null ? null : Number(value));
  return {
    ...row,
    id: Number(row.id),
    sequence: Number(row.sequence),
    occurred_at: Number(row.occurred_at),
    attempt_count: Number(row.attempt_count),
    next_attempt_at: Number(row.next_attempt_at),
    leased_until: numberOrNull(row.leased_until),
    last_attempt_at: numberOrNull(row.last_attempt_at),
    last_status_code: numberOrNull(row.last_status_code),
    delivered_at: numberOrNull(row.delivered_at),
    created_at: Number(row.created_at),
  };
}
