import type { Knex } from 'knex';
import { TemporarilyUnavailable } from '../errors.js';
import type { Database } from './database.js';
import { ChangeEpochStore } from './change-epochs.js';
import {
  inTransaction,
  isTransaction,
  oneCallWriter,
  type Executor,
  type Transaction,
} from './transactions.js';

/** Rows to insert, table by table, in the order given (a row may refer to an earlier one). */
export type RowsByTable = ReadonlyArray<readonly [table: string, rows: readonly object[]]>;

/**
 * One caller's write. `factsAsOf` is the change epoch (./change-epochs.ts) at which the cached
 * facts it relied on were read; the write is refused with StaleFacts when the epoch has moved
 * since, so a decision made from a cache never commits after what would have changed it.
 */
export interface GroupedWrite {
  rows: RowsByTable;
  factsAsOf?: number;
  /**
   * A single-use key the write consumes (a refresh token, say): its rows are stored only if
   * the key was consumed in the same transaction, else they are left out and the write resolves
   * false. Of writes in one group that consume the same key, the first one does.
   */
  consumes?: Consumption;
}

/** What a write consumes: a key of a kind of single-use keys, at an instant. */
export interface Consumption {
  use: SingleUse;
  key: string;
  /** What `use.hold` is to hold for this write (the key's parent row, say). */
  holding?: string;
  now: number;
}

/**
 * A kind of single-use key, consumed for a whole group of writes at once: one UPDATE for all
 * its keys, before any row of the group is inserted.
 */
export interface SingleUse {
  /** The column of `consume`'s rows that holds each consumed key. */
  readonly keyColumn: string;
  /**
   * The UPDATE that consumes those of `keys` that can be consumed at `now`, answering (RETURNING)
   * a row for each one it consumed.
   */
  consume(db: Executor, keys: string[], now: number): Knex.QueryBuilder;
  /**
   * Where transactions run side by side, a read run just before `consume` that holds the
   * writes' `holding` rows until the commit (Dialect.forShare). A group committed in one
   * synchronous call holds the whole database already, and does not run it.
   */
  hold?(db: Executor, holding: string[]): Knex.QueryBuilder;
}

/** The facts a write relied on changed before it could commit; nothing of it was written. */
export class StaleFacts extends Error {
  constructor(readonly epoch: number) {
    super('cached facts changed before the write committed');
  }
}

interface Pending {
  write: GroupedWrite;
  /** Called with false when the write's key was not consumed (nothing of it was stored). */
  resolve(stored: boolean): void;
  reject(error: unknown): void;
}

/** Rows per INSERT statement; far below both engines' limits on bound parameters. */
const ROWS_PER_STATEMENT = 200;
/** Writes per transaction: bounds how long one commit holds the writer. */
const WRITES_PER_COMMIT = 500;

/**
 * Group commit (DESIGN §7): inserts that concurrent requests ask for are committed together, in
 * one transaction with one statement per table, and each caller's promise settles only once that
 * transaction has committed, so what a caller acknowledges has been committed. One commit is in
 * flight at a time; whatever arrives meanwhile forms the next group, so groups grow with the load
 * and a lone request waits for nobody.
 *
 * Where the driver is synchronous (SQLite), a group's transaction, statements and COMMIT, is one
 * synchronous call on the writer (`oneCallWriter`); elsewhere it is a transaction like any other.
 *
 * If a group's transaction fails (a row refers to an app deleted meanwhile, say), nothing of it
 * was written, and each write of the group is retried in a transaction of its own, so that one
 * bad write fails alone.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private committing = false;

  constructor(private readonly db: Database) {}

  /**
   * Resolves once `write` has committed (false if its key was not consumed); rejects if it did
   * not commit (StaleFacts, a constraint...).
   */
  insert(write: GroupedWrite): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (!this.committing) {
        this.committing = true;
        // Requests whose I/O completed in this turn of the event loop join the same group.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const group = this.queue.splice(0, WRITES_PER_COMMIT);
        await this.commit(group);
      }
    } finally {
      // commit() settles every write it is given; should anything escape it all the same, the
      // next write must still start a drain rather than wait forever.
      this.committing = false;
    }
  }

  private async commit(group: Pending[]): Promise<void> {
    const writes = group.map((pending) => pending.write);
    const writeInOneCall = oneCallWriter(this.db);
    let stored: ReadonlySet<GroupedWrite>;
    try {
      if (writeInOneCall) {
        stored = await writeInOneCall((statements) => {
          const answered = new Map<SingleUse, Rows>();
          for (const [use, uses] of consumptionsByUse(writes)) {
            answered.set(use, statements.rows(consumption(this.db, use, uses)));
          }
          const held = writesToStore(writes, answered);
          for (const insert of inserts(this.db, held)) statements.run(insert);
          const stale = staleIn(group, () => new ChangeEpochStore(this.db).accountsNow(statements));
          if (stale) throw stale;
          return new Set(held);
        });
      } else {
        stored = await inTransaction(this.db, async (tx) => {
          const held = await consumedIn(tx, writes);
          for (const insert of inserts(tx, held)) await insert;
          // The epoch is read last: a PostgreSQL transaction that deletes an app locks the app's
          // row and then moves the epoch, and reading the epoch first would hold it while waiting
          // for that row (inserting a token checks its app), a deadlock.
          const stale = staleIn(group, await epochIfAsked(tx, group));
          if (stale) throw stale;
          return new Set(held);
        });
      }
    } catch (error) {
      if (error instanceof StaleInGroup) {
        for (const pending of error.stale) pending.reject(new StaleFacts(error.epoch));
        const rest = group.filter((pending) => !error.stale.includes(pending));
        if (rest.length) await this.commit(rest);
      } else if (group.length === 1 || error instanceof TemporarilyUnavailable) {
        // Retried already (transactions.ts): the database is too busy for any of them now.
        for (const pending of group) pending.reject(error);
      } else {
        await Promise.all(group.map((pending) => this.commit([pending])));
      }
      return;
    }
    for (const pending of group) pending.resolve(stored.has(pending.write));
  }
}

type Rows = Array<Record<string, unknown>>;

/** The single-use keys a group's writes consume, by kind. */
function consumptionsByUse(writes: readonly GroupedWrite[]): Map<SingleUse, Consumption[]> {
  const byUse = new Map<SingleUse, Consumption[]>();
  for (const { consumes } of writes) {
    if (consumes) byUse.set(consumes.use, [...(byUse.get(consumes.use) ?? []), consumes]);
  }
  return byUse;
}

/**
 * The writes whose rows are to be stored, in their order: those that consume nothing, and of
 * those that consume a key, the first one for each key that its kind's UPDATE answered.
 */
function writesToStore(writes: readonly GroupedWrite[], answered: Map<SingleUse, Rows>) {
  const unclaimed = new Map<SingleUse, Set<string>>();
  for (const [use, rows] of answered) {
    unclaimed.set(use, new Set(rows.map((row) => String(row[use.keyColumn]))));
  }
  return writes.filter(
    ({ consumes }) => !consumes || unclaimed.get(consumes.use)?.delete(consumes.key) === true,
  );
}

/** The UPDATE that consumes `uses`' keys of `use`, at the latest of their instants. */
function consumption(db: Executor, use: SingleUse, uses: Consumption[]): Knex.QueryBuilder {
  const keys = [...new Set(uses.map((one) => one.key))];
  return use.consume(db, keys, Math.max(...uses.map((one) => one.now)));
}

/** The writes to store (writesToStore), consumed in `tx`, each kind's `hold` run first. */
async function consumedIn(tx: Transaction, writes: readonly GroupedWrite[]) {
  const answered = new Map<SingleUse, Rows>();
  for (const [use, uses] of consumptionsByUse(writes)) {
    const holding = [...new Set(uses.flatMap((one) => (one.holding ? [one.holding] : [])))];
    if (use.hold && holding.length) await use.hold(tx, holding);
    answered.set(use, (await consumption(tx, use, uses)) as unknown as Rows);
  }
  return writesToStore(writes, answered);
}

/** Writes of a group that relied on facts older than the epoch: the group must not commit. */
class StaleInGroup extends Error {
  constructor(
    readonly stale: Pending[],
    readonly epoch: number,
  ) {
    super('a write of the group relied on stale facts');
  }
}

const asksForEpoch = (group: Pending[]) =>
  group.some((pending) => pending.write.factsAsOf !== undefined);

async function epochIfAsked(tx: Transaction, group: Pending[]): Promise<number | undefined> {
  return asksForEpoch(group) ? new ChangeEpochStore(tx).accounts() : undefined;
}

/** The writes that relied on facts older than the epoch (read only when one relied on any). */
function staleIn(
  group: Pending[],
  epoch: number | undefined | (() => number),
): StaleInGroup | undefined {
  if (!asksForEpoch(group)) return undefined;
  const current = typeof epoch === 'function' ? epoch() : (epoch ?? 0);
  const stale = group.filter((pending) => (pending.write.factsAsOf ?? current) < current);
  return stale.length ? new StaleInGroup(stale, current) : undefined;
}

/**
 * Every write's rows, one multi-row INSERT per table and chunk, tables in first-seen order: query
 * builders, which run when awaited (or when given to SynchronousStatements.run), in this order.
 */
function inserts(db: Executor, writes: GroupedWrite[]): Knex.QueryBuilder[] {
  const byTable = new Map<string, object[]>();
  for (const write of writes) {
    for (const [table, rows] of write.rows) {
      const list = byTable.get(table) ?? [];
      list.push(...rows);
      byTable.set(table, list);
    }
  }
  const queries: Knex.QueryBuilder[] = [];
  for (const [table, rows] of byTable) {
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      queries.push(db(table).insert(rows.slice(start, start + ROWS_PER_STATEMENT)));
    }
  }
  return queries;
}

/**
 * Inserts `write`'s rows in a commit shared with other requests' (GroupCommit), resolving once
 * it has committed; on a transaction, the rows are simply part of it. Resolves false when the
 * write's key was not consumed, and nothing of it was stored.
 */
export function commitGrouped(db: Executor, write: GroupedWrite): Promise<boolean> {
  return isTransaction(db) ? insertGrouped(db, write) : groupCommitOf(db).insert(write);
}

async function insertGrouped(tx: Transaction, write: GroupedWrite): Promise<boolean> {
  const held = (await consumedIn(tx, [write])).length === 1;
  if (held) for (const insert of inserts(tx, [write])) await insert;
  if (write.factsAsOf !== undefined) {
    const epoch = await new ChangeEpochStore(tx).accounts();
    if (write.factsAsOf < epoch) throw new StaleFacts(epoch);
  }
  return held;
}

const groupCommits = new WeakMap<Database, GroupCommit>();

/** The group commit of `db`: one per database handle, so one per process and database. */
function groupCommitOf(db: Database): GroupCommit {
  let groupCommit = groupCommits.get(db);
  if (!groupCommit) {
    groupCommit = new GroupCommit(db);
    groupCommits.set(db, groupCommit);
  }
  return groupCommit;
}
