import type { AuditEventRow } from '../db/rows.js';
import { Store } from '../db/store.js';

/** SQL for the audit trail: rows are appended, never changed. */
export class AuditStore extends Store {
  async insert(row: Omit<AuditEventRow, 'id'>): Promise<void> {
    await this.db('audit_events').insert(row);
  }

  /** The latest events about one app, newest first. */
  recentForApp(appId: string, limit: number): Promise<AuditEventRow[]> {
    return this.db('audit_events')
      .where({ app_id: appId })
      .orderBy([
        { column: 'occurred_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit);
  }
}
