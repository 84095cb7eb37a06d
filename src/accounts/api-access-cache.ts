import type { ApiAccessStore } from './api-access-store.js';
import type { KnownApi } from './api-catalogue.js';
import { FreshReads } from './fresh-reads.js';

/** Every app's stored API choices, read while the accounts epoch was `epoch`. */
interface Generation {
  epoch: number;
  /** `appId api` of the stored choices, enabled or not; an app without one has the default. */
  choices: Map<string, boolean>;
}

/**
 * Which APIs each app may use, held in memory for the GraphQL gateway's hot path: no statement
 * runs for a request while the facts are current.
 *
 * The facts are one generation named by the accounts epoch (src/db/change-epochs.ts) read before
 * them. A change of an app's APIs touches the app's row in the same transaction, so the epoch
 * moves with it, in whichever process (a console request, the CLI, another worker). This cache
 * learns of it three ways:
 *
 * - a caller says which epoch its facts must have reached (`asOf`: the epoch read with the
 *   caller's access token when it was verified), so a change committed before the token was
 *   verified is always seen;
 * - before the gateway refuses a field, it asks `isEnabledNow`, which reads the epoch after the
 *   request arrived (one read that concurrent callers share): an API enabled anywhere works on the
 *   very next request in every process;
 * - a change made in this process drops the generation at once (`forget`).
 *
 * So enabling counts at once everywhere; disabling counts at once in the process that made it,
 * and elsewhere once the caller's token is verified again (TOKEN_VERIFICATION_CACHE_MS), which
 * the console hastens by dropping every process's verified tokens over the realtime bus.
 */
export class ApiAccessCache {
  private generation: Promise<Generation> | undefined;
  /** The generation once loaded, for an answer without a promise. */
  private loaded: Generation | undefined;
  private readonly defaults: ReadonlyMap<string, boolean>;
  private readonly epochNow: FreshReads<number>;

  constructor(
    private readonly store: ApiAccessStore,
    private readonly readEpoch: () => Promise<number>,
    apis: readonly KnownApi[],
  ) {
    this.defaults = new Map(apis.map((api) => [api.name, api.enabledByDefault]));
    this.epochNow = new FreshReads(readEpoch);
  }

  /**
   * Whether the app may use `api`, from facts at least as recent as the accounts epoch `asOf`
   * (undefined: whatever this process holds); a promise only when they have to be read first.
   */
  isEnabled(appId: string, api: string, asOf?: number): boolean | Promise<boolean> {
    const loaded = this.loaded;
    if (loaded && (asOf === undefined || loaded.epoch >= asOf))
      return this.decide(loaded, appId, api);
    return this.atLeast(asOf).then((generation) => this.decide(generation, appId, api));
  }

  /** Whether the app may use `api` as the database says now (see the class comment). */
  async isEnabledNow(appId: string, api: string): Promise<boolean> {
    const generation = await this.atLeast(await this.epochNow.get());
    return this.decide(generation, appId, api);
  }

  /** Reads the facts now, so that the first request does not (a server calls it at start). */
  async warm(): Promise<void> {
    await this.atLeast(undefined);
  }

  /** This process changed an app's APIs: the facts are read again on the next request. */
  forget(): void {
    this.generation = undefined;
    this.loaded = undefined;
  }

  private decide(generation: Generation, appId: string, api: string): boolean {
    return generation.choices.get(`${appId} ${api}`) ?? this.defaults.get(api) ?? false;
  }

  /** The current generation when it has reached `epoch`, else a new one read now. */
  private async atLeast(epoch: number | undefined): Promise<Generation> {
    for (let attempt = 0; ; attempt += 1) {
      const pending = (this.generation ??= this.load());
      const generation = await pending;
      // A load that was running already may have read its epoch before `epoch` was read; one
      // that began after (the second attempt) has read a later one.
      if (epoch === undefined || generation.epoch >= epoch || attempt > 0) return generation;
      if (this.generation === pending) this.forget();
    }
  }

  private load(): Promise<Generation> {
    const loading = (async () => {
      const epoch = await this.readEpoch();
      const choices = new Map<string, boolean>();
      for (const row of await this.store.listAll())
        choices.set(`${row.app_id} ${row.api}`, row.enabled);
      return { epoch, choices };
    })();
    loading.then(
      (generation) => {
        if (this.generation === loading) this.loaded = generation;
      },
      () => {
        if (this.generation === loading) this.generation = undefined;
      },
    );
    return loading;
  }
}
