import type { Clock } from '../../clock.js';
import type { PersistedDocumentSource } from '../../db/rows.js';
import type { PersistedDocumentStore } from './persisted-document-store.js';

/**
 * What storing a document did: `stored` it, found it `known` already (a registration also makes
 * an automatic one registered), or left it out because the store is `full` of registered ones.
 */
export type StoreOutcome = 'stored' | 'known' | 'full';

/**
 * Persisted documents in the database, shared by every process: at most `maxDocuments`. An
 * automatic persisted query (APQ) that finds the store full evicts the oldest automatic
 * documents (by registration; uses are not recorded, so that a request by hash writes nothing):
 * a client whose document was evicted is told PERSISTED_QUERY_NOT_FOUND and sends it again.
 * Registered documents (`cli graphql persist`) are never evicted; when they alone fill the
 * store, another document is not stored.
 */
export class PersistedDocuments {
  constructor(
    private readonly store: PersistedDocumentStore,
    private readonly clock: Clock,
    private readonly maxDocuments: number,
  ) {}

  /** The text of the document with this hash, if one is stored. */
  find(hash: string): Promise<string | undefined> {
    return this.store.findText(hash);
  }

  /** Stores a document an APQ client sent with its (verified) hash, evicting if need be. */
  async storeAutomatic(hash: string, text: string): Promise<StoreOutcome> {
    // Most registrations come once per document and process; a known one needs no lock.
    if (await this.store.findSource(hash)) return 'known';
    return this.storeAs('automatic', hash, text);
  }

  /** Registers a document ahead of time: kept until removed, and runnable in strict mode. */
  register(hash: string, text: string): Promise<StoreOutcome> {
    return this.storeAs('registered', hash, text);
  }

  /** How many documents are stored, by source. */
  counts(): Promise<Record<PersistedDocumentSource, number>> {
    return this.store.countBySource();
  }

  private storeAs(source: PersistedDocumentSource, hash: string, text: string) {
    return this.store.inTransaction(async (store): Promise<StoreOutcome> => {
      await store.lockForRegistration();
      const known = await store.findSource(hash);
      if (known) {
        if (known === 'automatic' && source === 'registered') await store.markRegistered(hash);
        return 'known';
      }
      const counts = await store.countBySource();
      const over = counts.registered + counts.automatic + 1 - this.maxDocuments;
      if (over > 0) {
        if (counts.automatic < over) return 'full';
        await store.evictOldestAutomatic(over);
      }
      await store.insert({ hash, document: text, source, registered_at: this.clock.now() });
      return 'stored';
    });
  }
}
