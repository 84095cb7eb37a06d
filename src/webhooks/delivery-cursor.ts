import type { WebhookDeliveryRow } from '../db/rows.js';
import { ValidationError } from '../errors.js';
import type { DeliveryPosition } from './delivery-store.js';

/** The opaque cursor of a delivery in an endpoint's log (newest first): pass it as `after`. */
export function deliveryCursor(row: Pick<WebhookDeliveryRow, 'created_at' | 'id'>): string {
  return Buffer.from(`${row.created_at}.${row.id}`).toString('base64url');
}

/** Where a cursor of deliveryCursor points; a cursor it did not write is refused. */
export function deliveryPosition(cursor: string): DeliveryPosition {
  const match = /^(\d{1,16})\.(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new ValidationError('after is not a cursor of this list', 'after');
  return { createdAt: Number(match[1]), id: Number(match[2]) };
}
