import { migrateToLatest } from '../src/db/migrate.js';
import type { Database } from '../src/db/database.js';
import { randomToken } from '../src/security/random.js';
import type { SharedDependencies } from '../src/shared-dependencies.js';
import {
  benchDependencies,
  createBenchAccounts,
  issueAuthorizationCode,
  type BenchAccounts,
} from './accounts.js';
import type { Cleanup } from './cleanup.js';
import { createFreshDatabase, databaseVersion, type FreshDatabase } from './database.js';
import { LoadDriver } from './driver-client.js';
import { describeMachine, type Machine } from './machine.js';
import type { BenchOptions } from './options.js';
import { oidcPeerTokens } from './oidc-peer-tokens.js';
import { startPeers, type RunningPeer } from './peers.js';
import { RefreshTokenPool } from './refresh-pool.js';
import { buildResults, type BenchResults } from './report.js';
import { measureStage, type Measured } from './rounds.js';
import { highWaterMark } from './rss-sampler.js';
import {
  allScenarios,
  SCENARIO_NAMES,
  selectScenarios,
  type PeerName,
  type Scenario,
  type ScenarioFixtures,
  type Stage,
} from './scenarios/index.js';
import { analyzeTables, seedEvents, useBulkLoadSettings } from './seed-events.js';
import { seedClock, type EventRange, type SeedClock } from './seed-rows.js';
import { filteredRange, measuredEvents, middleEventId, otherEvents } from './seed-plan.js';
import { serviceConfigurations, startServices } from './service.js';
import { enableJobSync, removeWrittenPostings } from './sourced-postings.js';
import { stageFacts } from './stage-facts.js';
import type { StageInput } from './stage-input.js';
import { summarize } from './summary.js';
import { peerTarget, serviceTarget, type ServiceTarget, type Target } from './targets.js';
import { obtainTokens } from './tokens.js';
import {
  JOB_SEARCH_STAGE_NAME,
  jobSearchStageSelected,
  measureJobSearchStage,
  type JobSearchStageResult,
} from './job-search-stage.js';
import {
  measureWebhookStage,
  webhookStageSelected,
  WEBHOOK_STAGE_NAME,
  type WebhookStageResult,
} from './webhook-stage.js';

/** What the run needs once the database is seeded and the helper processes are up. */
interface Prepared {
  fresh: FreshDatabase;
  db: Database;
  shared: SharedDependencies;
  accounts: BenchAccounts;
  clock: SeedClock;
  machine: Machine;
  scenarios: Scenario[];
  driver: LoadDriver;
  peerTargets: Target[];
  keyEncryptionSecret: string;
  metricsToken: string;
}

/**
 * One benchmark run: a fresh database seeded with the small stage, the peers and the load driver
 * started meanwhile; every scenario measured on every service configuration; then the measured
 * employer grown to the large stage and the services restarted (a fresh process on a freshly
 * analysed database) to measure the P3 scenarios again.
 */
export class Benchmark {
  private readonly seeding: BenchResults['seeding'] = [];
  private readonly serviceLogs: BenchResults['serviceLogs'] = [];
  private highWaterMarkBytes = 0;
  private refreshPool: RefreshTokenPool | undefined;

  constructor(
    private readonly repository: string,
    private readonly options: BenchOptions,
    private readonly cleanup: Cleanup,
    private readonly log: (line: string) => void,
  ) {}

  async run(): Promise<BenchResults> {
    const prepared = await this.prepare();
    let small: Measured[] = [];
    let large: Measured[] = [];
    if (prepared.scenarios.length) {
      const fixtures = await this.fixtures(prepared);
      small = await this.runStage(prepared, fixtures, 'small');
      if (prepared.scenarios.some((scenario) => scenario.stages.includes('large'))) {
        const { smallEvents, largeEvents } = this.options;
        await this.seed(prepared, 'large', [
          measuredEvents(prepared.accounts, smallEvents, largeEvents),
        ]);
        large = await this.runStage(prepared, fixtures, 'large');
      }
    }
    return buildResults({
      options: this.options,
      machine: prepared.machine,
      seeding: this.seeding,
      serviceLogs: this.serviceLogs,
      rows: summarize([...small, ...large], {
        small: this.options.smallEvents,
        large: this.options.largeEvents,
      }),
      highWaterMarkBytes: this.highWaterMarkBytes,
      webhooks: webhookStageSelected(this.options.only)
        ? await this.runWebhookStage(prepared)
        : null,
      // Last: it grows the postings, which no other scenario reads.
      jobSearch: jobSearchStageSelected(this.options.only)
        ? await this.runJobSearchStage(prepared)
        : null,
    });
  }

  private async prepare(): Promise<Prepared> {
    const { options, cleanup } = this;
    const scenarios = selectScenarios(allScenarios(options.deepPage), options.only);
    if (
      !scenarios.length &&
      !webhookStageSelected(options.only) &&
      !jobSearchStageSelected(options.only)
    ) {
      throw new Error(`--only ${options.only.join(' ')} matches no scenario`);
    }
    // The driver and the peers start while the database is migrated and seeded.
    const driver = new LoadDriver(this.repository);
    cleanup.add(() => driver.stop());
    const peersStarted = startPeers(this.repository, peersOf(scenarios), {
      client: PEER_CLIENT,
      db: options.db,
    });
    peersStarted.catch(() => {}); // Awaited, and reported, after seeding.
    cleanup.add(async () => {
      const peers = await peersStarted.catch(() => new Map<PeerName, RunningPeer>());
      await Promise.all([...peers.values()].map((peer) => peer.stop()));
    });

    const fresh = await createFreshDatabase(options.db);
    cleanup.add(() => fresh.remove());
    const db = fresh.open();
    cleanup.add(() => db.destroy());
    await migrateToLatest(db);
    // Minting refresh tokens and codes between rounds needs no durable commits either.
    await useBulkLoadSettings(db, options.db);
    const keyEncryptionSecret = randomToken(32);
    const shared = benchDependencies(db, keyEncryptionSecret);
    const accounts = await createBenchAccounts(shared);
    if (writesPostings(scenarios)) await enableJobSync(db, shared, accounts.app.id);
    const prepared = {
      fresh,
      db,
      shared,
      accounts,
      clock: seedClock(),
      machine: describeMachine(await databaseVersion(db, options.db)),
      scenarios,
      driver,
      peerTargets: [] as Target[],
      keyEncryptionSecret,
      metricsToken: randomToken(24),
    };
    // The webhook stage alone writes its own events.
    if (scenarios.length) {
      await this.seed(prepared, 'small', [
        measuredEvents(accounts, 0, options.smallEvents),
        otherEvents(accounts, options.otherEvents),
      ]);
    }
    const [peers] = await Promise.all([peersStarted, driver.start()]);
    prepared.peerTargets = [...peers.values()].map(peerTarget);
    return prepared;
  }

  private async fixtures(prepared: Prepared): Promise<ScenarioFixtures> {
    const bounds = filteredRange(prepared.clock);
    return {
      accounts: prepared.accounts,
      eventId: await middleEventId(prepared.db, prepared.accounts, this.options.smallEvents),
      range: {
        after: new Date(bounds.from).toISOString(),
        before: new Date(bounds.until).toISOString(),
      },
      deepPage: this.options.deepPage,
      peerClient: PEER_CLIENT,
      mintRefreshTokens: (count) => {
        if (!this.refreshPool) throw new Error('no refresh token has been issued yet');
        return this.refreshPool.mint(count);
      },
      oidcPeer: oidcPeerTokens(() => {
        const target = prepared.peerTargets.find(
          (peer) => peer.kind === 'peer' && peer.peer.name === 'oidc-provider',
        );
        return target?.kind === 'peer' ? target.peer : undefined;
      }, PEER_CLIENT),
    };
  }

  private async seed(prepared: Prepared, stage: Stage, ranges: EventRange[]): Promise<void> {
    const { db } = prepared;
    const started = performance.now();
    await seedEvents({
      engine: this.options.db,
      connect: prepared.fresh.open,
      ranges,
      lobbyTokenBox: prepared.shared.boxes.lobbyTokens,
      clock: prepared.clock,
    });
    await analyzeTables(db, this.options.db);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const events = ranges.reduce((sum, range) => sum + range.to - range.from, 0);
    this.seeding.push({ stage, eventsInserted: events, seconds });
    this.log(`seeded ${events} events (${stage} stage) in ${seconds} s`);
  }

  private async runStage(
    prepared: Prepared,
    fixtures: ScenarioFixtures,
    stage: Stage,
  ): Promise<Measured[]> {
    const scenarios = prepared.scenarios.filter((scenario) => scenario.stages.includes(stage));
    if (!scenarios.length) return [];
    const services = await startServices({
      repository: this.repository,
      configurations: serviceConfigurations(this.options.workers),
      databaseEnv: prepared.fresh.env,
      keyEncryptionSecret: prepared.keyEncryptionSecret,
      metricsToken: prepared.metricsToken,
      profileDirectory: this.options.profileDirectory,
      log: this.log,
    });
    const stopServices = async () => {
      const processes = services.flatMap((service) => service.processIds());
      this.highWaterMarkBytes = Math.max(this.highWaterMarkBytes, highWaterMark(processes));
      await Promise.all(services.map((service) => service.stop()));
      for (const service of services) {
        this.serviceLogs.push({
          configuration: service.configuration.label,
          stage,
          ...service.logged(),
        });
      }
    };
    this.cleanup.add(stopServices);
    const targets: ServiceTarget[] = [];
    for (const service of services) {
      const code = await issueAuthorizationCode(prepared.shared, prepared.accounts);
      const { tokens, refreshToken } = await obtainTokens(service.url, prepared.accounts, code);
      this.refreshPool ??= new RefreshTokenPool(prepared.db, refreshToken);
      targets.push(serviceTarget(service, tokens));
    }
    const facts = await stageFacts({
      db: prepared.db,
      employerId: prepared.accounts.employers.measured,
      range: filteredRange(prepared.clock),
      serviceUrl: targets[0]!.url,
      token: targets[0]!.tokens.employer,
      deepPage: this.options.deepPage,
    });
    const measured = await measureStage({
      stage,
      scenarios,
      targets: [...targets, ...prepared.peerTargets],
      facts,
      fixtures,
      driver: prepared.driver,
      options: this.options,
      metricsToken: prepared.metricsToken,
      log: this.log,
    });
    await this.cleanup.runOne(stopServices);
    return measured;
  }

  private async runJobSearchStage(prepared: Prepared): Promise<JobSearchStageResult> {
    if (writesPostings(prepared.scenarios)) {
      await removeWrittenPostings(prepared.db, prepared.accounts.employers.writes);
    }
    const result = await measureJobSearchStage(this.stageInput(prepared));
    this.log(`${JOB_SEARCH_STAGE_NAME}: p50 large/small ${result.largeToSmallP50}`);
    return result;
  }

  private async runWebhookStage(prepared: Prepared): Promise<WebhookStageResult> {
    const result = await measureWebhookStage({
      ...this.stageInput(prepared),
      driver: prepared.driver,
    });
    this.log(
      `${WEBHOOK_STAGE_NAME}: ${result.deliveriesPerSecond} deliveries/s, ` +
        `p95 ${result.commitToReceiptMs.p95} ms from commit to 2xx`,
    );
    return result;
  }

  /** What a stage running its own service gets; its services' logs and memory are kept. */
  private stageInput(prepared: Prepared): StageInput {
    return {
      repository: this.repository,
      options: this.options,
      db: prepared.db,
      shared: prepared.shared,
      accounts: prepared.accounts,
      cleanup: this.cleanup,
      service: {
        databaseEnv: prepared.fresh.env,
        keyEncryptionSecret: prepared.keyEncryptionSecret,
        metricsToken: prepared.metricsToken,
      },
      log: this.log,
      beforeStop: (service, stage) => {
        this.highWaterMarkBytes = Math.max(
          this.highWaterMarkBytes,
          highWaterMark(service.processIds()),
        );
        // Logged once stopped; the stage's lines are read from the same counters.
        this.serviceLogs.push({ configuration: 'default', stage, ...service.logged() });
      },
    };
  }
}

/** The one client of the oidc-provider peer. */
const PEER_CLIENT = { id: 'bench-peer-client', secret: randomToken(32), scope: 'api:read' };

function writesPostings(scenarios: readonly Scenario[]): boolean {
  return scenarios.some((scenario) => scenario.name === SCENARIO_NAMES.sourcedPostings);
}

function peersOf(scenarios: readonly Scenario[]): PeerName[] {
  const peers = scenarios.flatMap((scenario) =>
    scenario.subject.kind === 'peer' ? [scenario.subject.peer] : [],
  );
  return [...new Set(peers)];
}
