import type { Knex } from 'knex';
import { Store } from '../db/store.js';
import type { DispositionPosition } from './disposition-pages.js';
import type { DispositionStatus } from './vocabulary.js';

/** One row of `partner_dispositions` (migration 0030). */
export interface DispositionRow {
  id: number | string;
  app_id: string;
  employer_id: string | null;
  dedupe_key: string;
  /** JSON of the identifier as sent. */
  identified_by: string;
  disposition_status: DispositionStatus;
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
   * One page of an owner's dispositions, the latest status change first (ties: the latest
   * stored first): up to `limit` rows after `after` in that order (from the start when null).
   */
  async page(
    owner: { appId: string; employerId: string | null },
    after: DispositionPosition | null,
    limit: number,
  ): Promise<DispositionRow[]> {
    const query = this.db<DispositionRow>('partner_dispositions').where('app_id', owner.appId);
    if (owner.employerId === null) query.whereNull('employer_id');
    else query.where('employer_id', owner.employerId);
    return pageAfter(query, after, limit);
  }

  /**
   * Deletes up to `limit` dispositions received before `before`, oldest first, in one write
   * transaction; how many. Rows another process is purging at that moment are passed over
   * (PostgreSQL), so that processes purging at once share the work and never wait on each other.
   */
  purgeReceivedBefore(before: number, limit: number): Promise<number> {
    return this.inTransaction(async (store) => {
      const rows: Array<{ id: number | string }> = await store.dialect.skipLocked(
        store
          .db('partner_dispositions')
          .select('id')
          .where('received_at', '<', before)
          .orderBy('received_at')
          .limit(limit),
        'partner_dispositions',
      );
      if (rows.length === 0) return 0;
      return store
        .db('partner_dispositions')
        .whereIn(
          'id',
          rows.map((row) => row.id),
        )
        .delete();
    });
  }

  /** One page of an app's dispositions for every employer, in the same order (the console). */
  async pageOfApp(
    appId: string,
    after: DispositionPosition | null,
    limit: number,
  ): Promise<DispositionRow[]> {
    return pageAfter(
      this.db<DispositionRow>('partner_dispositions').where('app_id', appId),
      after,
      limit,
    );
  }
}

function pageAfter(query: Knex.QueryBuilder, after: DispositionPosition | null, limit: number) {
  if (after !== null) {
    query.where((earlier) =>
      earlier
        .where('status_changed_at', '<', after.statusChangedAt)
        .orWhere((tie) =>
          tie.where('status_changed_at', after.statusChangedAt).where('id', '<', after.id),
        ),
    );
  }
  return query
    .orderBy([
      { column: 'status_changed_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit) as Promise<DispositionRow[]>;
}
