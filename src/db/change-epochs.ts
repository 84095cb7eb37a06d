import { Store } from './store.js';
import { isWriteTransaction, type SynchronousStatements } from './transactions.js';

type EpochRow = { epoch: number | string } | undefined;

/** The table of change epochs: one counter per kind of cached fact (migration 0011). */
export const CHANGE_EPOCHS_TABLE = 'change_epochs';

/**
 * The epoch of the facts that credential caches hold: apps (secrets, grant types, existence)
 * and employer memberships. Database triggers add one to it in every transaction that updates or
 * deletes such a row, whoever runs it (a console edit, the CLI, another process).
 */
export const ACCOUNTS_EPOCH = 'accounts';

/** SQL for change epochs. */
export class ChangeEpochStore extends Store {
  /**
   * The accounts epoch. Inside a write transaction the row is held (FOR SHARE on PostgreSQL)
   * until the transaction ends, so a change that would move the epoch waits for it to commit; on
   * SQLite the write transaction already excludes every other writer. Read it before reading
   * the facts it is to vouch for.
   */
  async accounts(): Promise<number> {
    const query = this.accountsQuery();
    return epochOf(await (isWriteTransaction(this.db) ? this.forShare(query) : query));
  }

  /** The accounts epoch, read inside a write transaction run in one call (`oneCallWriter`). */
  accountsNow(statements: SynchronousStatements): number {
    return epochOf(statements.rows<NonNullable<EpochRow>>(this.accountsQuery())[0]);
  }

  private accountsQuery() {
    return this.db(CHANGE_EPOCHS_TABLE).where({ name: ACCOUNTS_EPOCH }).first<EpochRow>('epoch');
  }
}

function epochOf(row: EpochRow): number {
  return row ? Number(row.epoch) : 0;
}
