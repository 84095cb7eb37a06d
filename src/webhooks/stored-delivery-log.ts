import type { EpochMs, WebhookAttemptRow, WebhookDeliveryRow } from '../db/rows.js';
import { ValidationError } from '../errors.js';
import { deliveryCursor as cursorOf, deliveryPosition as positionOf } from './delivery-cursor.js';
import type { DeliveryPage, DeliveryLog } from './delivery-log.js';
import type { DeliveryStore } from './delivery-store.js';

const MOST_PER_PAGE = 100;

/**
 * The DeliveryLog over the deliveries table. A resend or a recovery wakes this process's
 * worker, so that "at once" means at once rather than at the next poll.
 */
export class StoredDeliveryLog implements DeliveryLog {
  constructor(
    private readonly store: DeliveryStore,
    private readonly wake: () => void,
  ) {}

  async list(
    appId: string,
    endpointId: string,
    page: { first: number; after?: string | null; status?: WebhookDeliveryRow['status'] },
  ): Promise<DeliveryPage> {
    const size = page.first;
    if (!Number.isInteger(size) || size < 1 || size > MOST_PER_PAGE) {
      throw new ValidationError(`first must be an integer from 1 to ${MOST_PER_PAGE}`, 'first');
    }
    const after = page.after ? positionOf(page.after) : null;
    // One more than asked tells whether there is a next page.
    const rows = await this.store.list(appId, endpointId, {
      limit: size + 1,
      after,
      status: page.status,
    });
    const deliveries = rows.slice(0, size);
    const last = deliveries.at(-1);
    return {
      deliveries,
      nextCursor: rows.length > size && last ? cursorOf(last) : null,
    };
  }

  find(appId: string, deliveryId: number): Promise<WebhookDeliveryRow | undefined> {
    return this.store.find(appId, deliveryId);
  }

  async attempts(
    appId: string,
    deliveryIds: readonly number[],
  ): Promise<ReadonlyMap<number, WebhookAttemptRow[]>> {
    const byDelivery = new Map<number, WebhookAttemptRow[]>();
    for (const attempt of await this.store.attempts(appId, deliveryIds)) {
      const deliveryId = Number(attempt.delivery_id);
      const attempts = byDelivery.get(deliveryId) ?? [];
      attempts.push(attempt);
      byDelivery.set(deliveryId, attempts);
    }
    return byDelivery;
  }

  async resend(
    appId: string,
    deliveryId: number,
    now: EpochMs,
  ): Promise<WebhookDeliveryRow | undefined> {
    if (!(await this.store.requeue(appId, deliveryId, now))) return undefined;
    // The delivery as the resend left it, read before the worker is woken to send it.
    const requeued = await this.store.find(appId, deliveryId);
    this.wake();
    return requeued;
  }

  async recoverFailed(
    appId: string,
    endpointId: string,
    since: EpochMs,
    now: EpochMs,
  ): Promise<number> {
    const recovered = await this.store.requeueFailed(appId, endpointId, since, now);
    if (recovered) this.wake();
    return recovered;
  }
}
