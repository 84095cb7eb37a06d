import { Store } from '../db/store.js';

/** One app's stored choice for one API (migration 0021). */
export interface ApiAccessRow {
  app_id: string;
  api: string;
  enabled: boolean;
  changed_at: number;
}

type StoredRow = Omit<ApiAccessRow, 'enabled' | 'changed_at'> & {
  enabled: boolean | number;
  changed_at: number | string;
};

/** SQL for which APIs apps are enabled for. */
export class ApiAccessStore extends Store {
  /** Every stored choice of every app: what the access cache holds (rows exist only for changes). */
  async listAll(): Promise<ApiAccessRow[]> {
    const rows: StoredRow[] = await this.db('app_api_access').select('*');
    return rows.map(normalized);
  }

  async listForApp(appId: string): Promise<ApiAccessRow[]> {
    const rows: StoredRow[] = await this.db('app_api_access')
      .where({ app_id: appId })
      .orderBy('api')
      .select('*');
    return rows.map(normalized);
  }

  /** The app's choice for one API, read inside the transaction that changes it. */
  async find(appId: string, api: string): Promise<ApiAccessRow | undefined> {
    const row: StoredRow | undefined = await this.db('app_api_access')
      .where({ app_id: appId, api })
      .first();
    return row && normalized(row);
  }

  async upsert(row: ApiAccessRow): Promise<void> {
    await this.db('app_api_access')
      .insert(row)
      .onConflict(['app_id', 'api'])
      .merge(['enabled', 'changed_at']);
  }
}

/** SQLite keeps booleans as 0/1, PostgreSQL bigints as strings. */
function normalized(row: StoredRow): ApiAccessRow {
  return { ...row, enabled: Boolean(row.enabled), changed_at: Number(row.changed_at) };
}
