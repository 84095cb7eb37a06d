import type { AppRow } from '../db/rows.js';
import type { AccountStore } from './account-store.js';
import type { AppStore } from './app-store.js';
import { FreshReads } from './fresh-reads.js';

/** Apps and memberships read while the accounts epoch was `epoch`. */
interface Generation {
  epoch: number;
  apps: Map<string, AppRow>;
  /** `userId employerId` of memberships known to exist. */
  members: Set<string>;
}

/** Entries per map before the generation starts over (a bound on memory, not on staleness). */
const MAX_ENTRIES = 20_000;

/**
 * Apps by client id and employer memberships, kept in memory for the token endpoint's hot path.
 *
 * An entry may be stale: another process (the CLI, another server or worker) may have rotated
 * the secret or removed the membership since. Staleness is not prevented here but caught where it
 * would matter, when the write that relies on it commits: every entry belongs to a generation
 * named by the accounts epoch (src/db/change-epochs.ts) read before the entry was, database
 * triggers move that epoch with every change to apps or memberships, and a group-committed write
 * carries the epoch of the facts it used (`factsAsOf`) and is refused if the epoch has moved. The
 * caller then forgets the generation and starts again from the database. So nothing issued from a
 * stale entry is ever acknowledged, in any process, without a message bus.
 *
 * A caller with no write to check at (introspection, a read) asks for a current entry instead
 * (`currentAppByClientId`): the epoch is read anew, after the request arrived, and a generation
 * older than it is dropped first. So the entry is as current as a read of the app itself would
 * be, for one read of a single row that concurrent callers share (FreshReads).
 *
 * Only what exists is cached: an unknown client id or a missing membership is asked of the
 * database every time, so probing with random ids cannot fill memory.
 */
export class CredentialCache {
  private generation: Promise<Generation> | undefined;
  private readonly epochOf = new WeakMap<AppRow, number>();
  private readonly epochNow: FreshReads<number>;

  constructor(
    private readonly stores: { apps: AppStore; accounts: AccountStore },
    private readonly readEpoch: () => Promise<number>,
  ) {
    this.epochNow = new FreshReads(readEpoch);
  }

  /** The app with `clientId` as it is now: the cached entry if no app changed since it was read. */
  async currentAppByClientId(clientId: string): Promise<AppRow | undefined> {
    await this.forgetBefore(await this.epochNow.get());
    return this.appByClientId(clientId);
  }

  /** The app with `clientId`, from this cache or else the database (then cached). */
  async appByClientId(clientId: string): Promise<AppRow | undefined> {
    const generation = await this.current();
    const cached = generation.apps.get(clientId);
    if (cached) return cached;
    const app = await this.stores.apps.findByClientId(clientId);
    if (app) {
      if (generation.apps.size >= MAX_ENTRIES) generation.apps.clear();
      generation.apps.set(clientId, app);
      this.epochOf.set(app, generation.epoch);
    }
    return app;
  }

  /**
   * Drops the entry of `clientId` (the database said otherwise: a secret that did not match, an
   * app that no longer exists), so that the next request reads it anew.
   */
  forget(clientId: string): void {
    void this.generation?.then(
      (generation) => generation.apps.delete(clientId),
      () => undefined,
    );
  }

  /**
   * The epoch as of which `app` was read, if this cache returned it; a write relying on it passes
   * this as `factsAsOf`. Undefined for a row read from the database by anyone else.
   */
  factsAsOf(app: AppRow): number | undefined {
    return this.epochOf.get(app);
  }

  /** Whether `userId` belongs to `employerId`. */
  async isMember(userId: string, employerId: string): Promise<boolean> {
    const generation = await this.current();
    const key = `${userId} ${employerId}`;
    if (generation.members.has(key)) return true;
    const member = (await this.stores.accounts.findMembership(userId, employerId)) !== undefined;
    if (member) {
      if (generation.members.size >= MAX_ENTRIES) generation.members.clear();
      generation.members.add(key);
    }
    return member;
  }

  /** A write found the accounts epoch at `epoch`: everything read before it is forgotten. */
  async forgetBefore(epoch: number): Promise<void> {
    const generation = await this.generation?.catch(() => undefined);
    if (!generation || generation.epoch < epoch) this.generation = Promise.resolve(fresh(epoch));
  }

  private current(): Promise<Generation> {
    if (!this.generation) {
      const loading = this.readEpoch().then(fresh);
      loading.catch(() => {
        if (this.generation === loading) this.generation = undefined;
      });
      this.generation = loading;
    }
    return this.generation;
  }
}

function fresh(epoch: number): Generation {
  return { epoch, apps: new Map(), members: new Set() };
}
