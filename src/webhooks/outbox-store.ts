import type { Knex } from 'knex';
import { Store } from '../db/store.js';
import type { EpochMs } from '../db/rows.js';

/** One change as the outbox writes it, once for each endpoint that wants it. */
export interface OutboxEntry {
  messageId: string;
  appId: string;
  employerId: string | null;
  type: string;
  subject: string;
  occurredAt: EpochMs;
  /** The envelope's `data` as JSON text. */
  data: string;
}

/**
 * The outbox side of webhook_deliveries: the rows a change writes in its own transaction. One
 * INSERT ... SELECT writes a row for every enabled endpoint of the app whose filters take the
 * change, so that a change nobody listens to costs one statement and writes nothing.
 */
export class OutboxStore extends Store {
  /** Whether any of these apps has an enabled endpoint. */
  async anyEnabledEndpoint(appIds: readonly string[]): Promise<boolean> {
    const row = await this.db('webhook_endpoints')
      .whereIn('app_id', [...appIds])
      .andWhere('enabled', true)
      .first('id');
    return row !== undefined;
  }

  async enqueue(entry: OutboxEntry): Promise<void> {
    await this.insertFor(entry, {
      sql: `e.app_id = ? AND e.enabled = ?
         AND (e.event_types = '' OR e.event_types LIKE ? ESCAPE '\\')
         AND (e.employer_ids = '' OR e.employer_ids LIKE ? ESCAPE '\\')`,
      bindings: [
        entry.appId,
        true,
        `%,${likeLiteral(entry.type)},%`,
        // No employer: only endpoints that take every employer match (LIKE NULL is never true).
        entry.employerId === null ? null : `%,${likeLiteral(entry.employerId)},%`,
      ],
    });
  }

  /** A delivery to one endpoint of the app whatever its filters (a test event, for one). */
  async enqueueTo(endpointId: string, entry: OutboxEntry): Promise<void> {
    await this.insertFor(entry, {
      sql: 'e.id = ? AND e.app_id = ?',
      bindings: [endpointId, entry.appId],
    });
  }

  private async insertFor(
    entry: OutboxEntry,
    endpoints: { sql: string; bindings: Knex.RawBinding[] },
  ): Promise<void> {
    await this.db.raw(
      `INSERT INTO webhook_deliveries
         (message_id, endpoint_id, app_id, type, subject, sequence, employer_id, occurred_at,
          data, status, attempt_count, next_attempt_at, created_at)
       SELECT ?, e.id, e.app_id, ?, ?,
              COALESCE((SELECT MAX(d.sequence) FROM webhook_deliveries d
                        WHERE d.endpoint_id = e.id AND d.subject = ?), 0) + 1,
              ?, ?, ?, 'pending', 0, ?, ?
       FROM webhook_endpoints e
       WHERE ${endpoints.sql}`,
      [
        entry.messageId,
        entry.type,
        entry.subject,
        entry.subject,
        entry.employerId,
        entry.occurredAt,
        entry.data,
        entry.occurredAt,
        entry.occurredAt,
        ...endpoints.bindings,
      ],
    );
  }
}

/** `value` matched literally by LIKE ... ESCAPE '\'. */
function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}
