import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { AuditEventRow } from '../db/rows.js';
import type { Transaction } from '../db/transactions.js';
import type { AuditStore } from './audit-store.js';

export type AuditEventType =
  | 'sign_in.succeeded'
  | 'sign_in.failed'
  | 'sign_in.rate_limited'
  | 'consent.granted'
  | 'consent.denied'
  | 'token.issued'
  | 'explorer_token.issued'
  | 'code.replayed'
  | 'refresh_token.reused'
  | 'token.revoked'
  | 'signing_key.rotated'
  | 'app.registered'
  | 'app.updated'
  /** Before the single-URL events below, one event carried the whole new list. */
  | 'app.redirect_uris_changed'
  | 'app.redirect_uri_added'
  | 'app.redirect_uri_changed'
  | 'app.redirect_uri_removed'
  | 'app.secret_rotated'
  | 'app.secret_revealed'
  | 'app.deleted'
  /** An app enabled or disabled for one API behind the GraphQL gateway (details: `api`). */
  | 'app.api_enabled'
  | 'app.api_disabled'
  /** The app's own GraphQL cost budget set, changed or removed (src/cost-budgets/). */
  | 'app.cost_budget_changed'
  | 'email.verification_sent'
  | 'email.verified'
  | 'password_reset.requested'
  | 'password_reset.rate_limited'
  | 'password_reset.completed'
  /** Someone signed up with an address that has an account; its owner was mailed (or not). */
  | 'sign_up.existing_address'
  /** Webhook endpoint management (src/webhooks/endpoint-service.ts); never the secret itself. */
  | 'calendar_mail.settings_changed'
  | 'webhook.endpoint_created'
  | 'webhook.endpoint_updated'
  | 'webhook.endpoint_enabled'
  | 'webhook.endpoint_disabled'
  | 'webhook.endpoint_deleted'
  | 'webhook.secret_rotated'
  | 'webhook.test_sent'
  | 'webhook.delivery_resent'
  | 'webhook.deliveries_recovered';

export interface AuditEntry {
  type: AuditEventType;
  actorUserId?: string | null;
  appId?: string | null;
  employerId?: string | null;
  ip?: string | null;
  /** The request that caused the event (its X-Request-Id); none for the CLI and background work. */
  requestId?: string | null;
  /** Event-specific facts. Never a secret: no tokens, codes, passwords or client secrets. */
  details?: Record<string, unknown>;
}

/** Where a request that causes audited events came from: what its entries record of it. */
export interface RequestOrigin {
  /** The client's address. */
  ip: string;
  /** The request's id (X-Request-Id); absent where no request is involved (tests, the CLI). */
  requestId?: string;
}

/** Append-only record of security-relevant events, in the audit_events table. */
export class AuditLog {
  constructor(
    private readonly store: AuditStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * Appends an entry; given a transaction, the entry commits (or rolls back) with it, and is
   * announced in the log only once it committed: a transaction the database undid is run again
   * (src/db/transactions.ts), and each attempt would otherwise log the entry once more.
   */
  async record(entry: AuditEntry, tx?: Transaction): Promise<void> {
    await (tx ? this.store.on(tx) : this.store).insert(this.row(entry));
    if (!tx) return this.announce(entry);
    tx.executionPromise.then(
      () => this.announce(entry),
      () => {},
    );
  }

  /** The row that records `entry`, for a caller that stores it with its own writes. */
  row(entry: AuditEntry): Omit<AuditEventRow, 'id'> {
    return {
      occurred_at: this.clock.now(),
      type: entry.type,
      actor_user_id: entry.actorUserId ?? null,
      app_id: entry.appId ?? null,
      employer_id: entry.employerId ?? null,
      request_id: entry.requestId ?? null,
      ip: entry.ip ?? null,
      details: entry.details ? JSON.stringify(entry.details) : null,
    };
  }

  /** Logs that `entry` was stored. */
  announce(entry: AuditEntry): void {
    this.logger.info(
      {
        audit: entry.type,
        appId: entry.appId,
        userId: entry.actorUserId,
        ...(entry.requestId && { requestId: entry.requestId }),
      },
      'audit event',
    );
  }

  /** The latest events about one app, newest first. */
  recentForApp(appId: string, limit: number): Promise<AuditEventRow[]> {
    return this.store.recentForApp(appId, limit);
  }
}
