import type { IndeedDispositionStatus } from '../../generated/graphql.js';
import { Store } from '../db/store.js';

/** One row of `partner_dispositions` (migration 0030). */
export interface DispositionRow {
  id: number | string;
  app_id: string;
  employer_id: string | null;
  dedupe_key: string;
  /** JSON of the identifier as sent. */
  identified_by: string;
  disposition_status: IndeedDispositionStatus;
  raw_disposition_status: string;
  raw_disposition_details: string | null;
  ats_name: string;
  status_changed_at: number | string;
  status_change_offset: number;
  application_source_name: string | null;
  received_at: number | string;
}

export type NewDispositionRow = Omit<DispositionRow, 'id'>;

/** The SQL of Disposition Sync: the only module that reads or writes `partner_dispositions`. */
export class DispositionStore extends Store {
  /**
   * Stores the rows whose (app, key) is not stored yet, in one statement; a row stored
   * meanwhile by another request is left as it is. Rows go in key order, so that two requests
   * inserting the same keys wait for each other in one order and never deadlock (PostgreSQL).
   */
  async insertNew(rows: readonly NewDispositionRow[]): Promise<void> {
    if (rows.length === 0) return;
    const ordered = [...rows].sort((a, b) => (a.dedupe_key < b.dedupe_key ? -1 : 1));
    await this.db('partner_dispositions')
      .insert(ordered)
      .onConflict(['app_id', 'dedupe_key'])
      .ignore();
  }

  /**
   * One page of an owner's dispositions, the latest stored first: up to `limit` rows with an id
   * below `beforeId` (all when null).
   */
  async page(
    owner: { appId: string; employerId: string | null },
    beforeId: number | null,
    limit: number,
  ): Promise<DispositionRow[]> {
    const query = this.db<DispositionRow>('partner_dispositions').where('app_id', owner.appId);
    if (owner.employerId === null) query.whereNull('employer_id');
    else query.where('employer_id', owner.employerId);
    if (beforeId !== null) query.where('id', '<', beforeId);
    return query.orderBy('id', 'desc').limit(limit);
  }

  /** One page of an app's dispositions for every employer, the latest stored first (console). */
  async pageOfApp(appId: string, beforeId: number | null, limit: number): Promise<DispositionRow[]> {
    const query = this.db<DispositionRow>('partner_dispositions').where('app_id', appId);
    if (beforeId !== null) query.where('id', '<', beforeId);
    return query.orderBy('id', 'desc').limit(limit);
  }
}
