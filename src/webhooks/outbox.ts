import { randomBytes } from 'node:crypto';
import { afterCommit, type Executor } from '../db/transactions.js';
import type { WebhookNotice } from './notice.js';
import { OutboxStore } from './outbox-store.js';

/**
 * Where capabilities hand the changes partners hear about (DESIGN §8). `record` runs in the
 * change's own transaction, so a change that rolls back leaves nothing to deliver and one that
 * commits can never lose its deliveries.
 */
export interface WebhookOutbox {
  record(notice: WebhookNotice, tx: Executor): Promise<void>;
  /** Many notices of one transaction, when the outbox can take them together. */
  recordAll?(notices: readonly WebhookNotice[], tx: Executor): Promise<void>;
}

/** Records each of `notices`, together where `outbox` can. */
export async function recordAll(
  outbox: WebhookOutbox,
  notices: readonly WebhookNotice[],
  tx: Executor,
): Promise<void> {
  if (outbox.recordAll) return outbox.recordAll(notices, tx);
  for (const notice of notices) await outbox.record(notice, tx);
}

function entryOf(notice: WebhookNotice) {
  return {
    messageId: newMessageId(),
    appId: notice.appId,
    employerId: notice.employerId,
    type: notice.type,
    subject: notice.subject,
    occurredAt: notice.time,
    data: JSON.stringify(notice.data),
  };
}

export class StoredWebhookOutbox implements WebhookOutbox {
  /** `committed` is told after a transaction that recorded something commits. */
  constructor(private readonly committed: () => void = () => {}) {}

  async record(notice: WebhookNotice, tx: Executor): Promise<void> {
    await new OutboxStore(tx).enqueue(entryOf(notice));
    afterCommit(tx, this.committed);
  }

  /** A batch of one app's changes costs one statement when the app has no enabled endpoint. */
  async recordAll(notices: readonly WebhookNotice[], tx: Executor): Promise<void> {
    if (notices.length === 0) return;
    const store = new OutboxStore(tx);
    const appIds = [...new Set(notices.map((notice) => notice.appId))];
    if (notices.length > 1 && !(await store.anyEnabledEndpoint(appIds))) return;
    for (const notice of notices) await store.enqueue(entryOf(notice));
    afterCommit(tx, this.committed);
  }

  /** Delivers `notice` to one endpoint of its app, whatever the endpoint's filters. */
  async recordTo(endpointId: string, notice: WebhookNotice, tx: Executor): Promise<void> {
    await new OutboxStore(tx).enqueueTo(endpointId, entryOf(notice));
    afterCommit(tx, this.committed);
  }
}

/** An outbox that drops everything: for compositions and tests without webhooks. */
export const NO_WEBHOOKS: WebhookOutbox = { record: async () => {} };

/** `msg_` and 24 random bytes, base64url: the `webhook-id` of one change. */
export function newMessageId(): string {
  return `msg_${randomBytes(24).toString('base64url')}`;
}
