import type { EpochMs, WebhookAttemptRow, WebhookDeliveryRow } from '../db/rows.js';

/** One page of an endpoint's deliveries, newest first. */
export interface DeliveryPage {
  deliveries: WebhookDeliveryRow[];
  /** Pass as `after` for the next page; null on the last one. */
  nextCursor: string | null;
}

/**
 * What the console, the CLI and the management API may see and do with deliveries (the delivery
 * worker owns their rows; this is its window for the owners of endpoints). Every method is scoped
 * to the app: another app's delivery is reported as absent.
 */
export interface DeliveryLog {
  /** At most `first` (1 to 100) deliveries of one endpoint, newest first. */
  list(
    appId: string,
    endpointId: string,
    page: { first: number; after?: string | null; status?: WebhookDeliveryRow['status'] },
  ): Promise<DeliveryPage>;
  find(appId: string, deliveryId: number): Promise<WebhookDeliveryRow | undefined>;
  /**
   * Every attempt of each given delivery, oldest first (bounded by the retry schedule), in one
   * read; a delivery of another app, or none, has no entry.
   */
  attempts(
    appId: string,
    deliveryIds: readonly number[],
  ): Promise<ReadonlyMap<number, WebhookAttemptRow[]>>;
  /**
   * Sends one delivery again at once, whatever its status, keeping its `webhook-id`; undefined
   * when the app has no such delivery.
   */
  resend(appId: string, deliveryId: number, now: EpochMs): Promise<WebhookDeliveryRow | undefined>;
  /** Puts every failed delivery of the endpoint created since `since` back in the queue. */
  recoverFailed(appId: string, endpointId: string, since: EpochMs, now: EpochMs): Promise<number>;
}
