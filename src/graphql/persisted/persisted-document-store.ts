import type { PersistedDocumentRow, PersistedDocumentSource } from '../../db/rows.js';
import { Store } from '../../db/store.js';

const TABLE = 'persisted_documents';

/** SQL for persisted GraphQL documents, by the SHA-256 of their text. */
export class PersistedDocumentStore extends Store {
  /**
   * Makes registrations take turns, so that the count they check and the rows they evict agree
   * (a row lock cannot cover the row being inserted).
   */
  lockForRegistration(): Promise<void> {
    return this.serializeOn(TABLE);
  }

  async findText(hash: string): Promise<string | undefined> {
    const row = await this.db(TABLE)
      .where({ hash })
      .first<Pick<PersistedDocumentRow, 'document'> | undefined>('document');
    return row?.document;
  }

  async findSource(hash: string): Promise<PersistedDocumentSource | undefined> {
    const row = await this.db(TABLE)
      .where({ hash })
      .first<Pick<PersistedDocumentRow, 'source'> | undefined>('source');
    return row?.source;
  }

  async insert(row: PersistedDocumentRow): Promise<void> {
    await this.db(TABLE).insert(row);
  }

  /** Makes an automatic document a registered one, which eviction leaves alone. */
  async markRegistered(hash: string): Promise<void> {
    await this.db(TABLE).where({ hash }).update({ source: 'registered' });
  }

  /** Deletes the `count` oldest automatic documents; returns how many there were. */
  evictOldestAutomatic(count: number): Promise<number> {
    if (count <= 0) return Promise.resolve(0);
    const oldest = this.db(TABLE)
      .select('hash')
      .where({ source: 'automatic' })
      .orderBy([{ column: 'registered_at' }, { column: 'hash' }])
      .limit(count);
    return this.db(TABLE).whereIn('hash', oldest).delete();
  }

  /** How many documents are stored, by source. */
  async countBySource(): Promise<Record<PersistedDocumentSource, number>> {
    const rows = await this.db(TABLE)
      .select('source')
      .count<Array<{ source: PersistedDocumentSource; count: string | number }>>({ count: '*' })
      .groupBy('source');
    const counts = { registered: 0, automatic: 0 };
    for (const row of rows) counts[row.source] = Number(row.count);
    return counts;
  }
}
