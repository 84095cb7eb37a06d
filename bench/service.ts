import { resolve } from 'node:path';
import { SERVICE_ENTRY } from './build.js';
import { freePort, processTree, spawnChild, type Child } from './processes.js';

const READY_TIMEOUT_MS = 60_000;
/** Far above anything the benchmark sends: it measures the service, not its limiter. */
const RAISED_RATE_LIMITS = {
  RATE_LIMIT_TOKEN_MAX: '1000000000',
  RATE_LIMIT_SIGN_IN_MAX: '1000000000',
  // Budgets stay on (every request is charged through its leases), far above what is sent.
  GRAPHQL_COST_BUDGET: '2000000000',
};

/** One configuration of the service under test. */
export interface ServiceConfiguration {
  /** `default` (the service's own choice, or --workers) or `1` (WORKERS=1). */
  label: string;
  /** WORKERS to pass; undefined passes none. */
  workers: number | undefined;
}

export interface RunningService {
  configuration: ServiceConfiguration;
  url: string;
  pid: number;
  /** The service process and its cluster workers, if any. */
  processIds(): number[];
  /** Processes that serve requests: the cluster workers, or the one process. */
  servingProcesses(): number;
  output(): string;
  /** What it logged since it started (at LOG_LEVEL=warn, every line is a warning or worse). */
  logged(): { lines: number; first: string[] };
  stop(): Promise<void>;
}

/** Log lines kept word for word, and the most characters kept of each. */
const LOG_LINES_KEPT = 5;
const LOG_LINE_CHARACTERS = 2000;

/**
 * The default configuration (what the service does without WORKERS, or --workers) and the
 * single process (WORKERS=1), so that every ratio is reported for both.
 */
export function serviceConfigurations(workers: number | undefined): ServiceConfiguration[] {
  const single: ServiceConfiguration = { label: '1', workers: 1 };
  if (workers === 1) return [single];
  return [{ label: 'default', workers }, single];
}

export function describeConfiguration(configuration: ServiceConfiguration): string {
  if (configuration.workers === undefined) return 'default configuration (no WORKERS)';
  return `${configuration.label === 'default' ? 'default configuration, ' : ''}WORKERS=${configuration.workers}`;
}

/** Starts every configuration at once, each on a free port of its own. */
export async function startServices(input: {
  repository: string;
  configurations: readonly ServiceConfiguration[];
  databaseEnv: Record<string, string>;
  keyEncryptionSecret: string;
  metricsToken: string;
  profileDirectory?: string;
  /** Settings beyond the bench's own (the webhook stage's). */
  extraEnv?: Record<string, string>;
  log: (line: string) => void;
}): Promise<RunningService[]> {
  const { configurations, log, ...common } = input;
  log(`starting the service: ${configurations.map(describeConfiguration).join('; ')}`);
  const started = await Promise.allSettled(
    configurations.map(async (configuration) =>
      startService({ ...common, configuration, port: await freePort() }),
    ),
  );
  const services = started.flatMap((outcome) =>
    outcome.status === 'fulfilled' ? [outcome.value] : [],
  );
  const failure = started.find((outcome) => outcome.status === 'rejected');
  if (failure) {
    await Promise.all(services.map((service) => service.stop()));
    throw failure.reason;
  }
  return services;
}

/**
 * Starts `node dist/src/main.js` in production mode on the given database and port and waits
 * until `/readyz` answers 200.
 */
export async function startService(input: {
  repository: string;
  configuration: ServiceConfiguration;
  port: number;
  databaseEnv: Record<string, string>;
  keyEncryptionSecret: string;
  metricsToken: string;
  profileDirectory?: string;
  extraEnv?: Record<string, string>;
}): Promise<RunningService> {
  const { configuration, port } = input;
  const url = `http://127.0.0.1:${port}`;
  const logged = { lines: 0, first: [] as string[] };
  // Cluster workers inherit the primary's flags; each process writes its profile when it exits.
  const profiling = input.profileDirectory
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(input.profileDirectory, configuration.label)}`]
    : [];
  const child = spawnChild(process.execPath, [...profiling, SERVICE_ENTRY], {
    cwd: input.repository,
    onLine: (line) => {
      if (!line.trim()) return;
      logged.lines++;
      if (logged.first.length < LOG_LINES_KEPT)
        logged.first.push(line.slice(0, LOG_LINE_CHARACTERS));
    },
    env: {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      AUTH_URL: url,
      KEY_ENCRYPTION_SECRET: input.keyEncryptionSecret,
      METRICS_TOKEN: input.metricsToken,
      LOG_LEVEL: 'warn',
      SWEEP_INTERVAL_MS: '0',
      // The webhook queue gauges' reading (2 statements every few seconds per process) would
      // land in the probe's statements per request; a bench process reads it rarely.
      WEBHOOK_QUEUE_READ_MS: '300000',
      ...RAISED_RATE_LIMITS,
      ...input.databaseEnv,
      ...input.extraEnv,
      ...(configuration.workers !== undefined && { WORKERS: String(configuration.workers) }),
    },
  });
  await waitUntilReady(url, child, configuration.label);
  const pid = child.process.pid!;
  return {
    configuration,
    url,
    pid,
    processIds: () => processTree(pid),
    servingProcesses: () => Math.max(1, processTree(pid).length - 1),
    output: child.output,
    logged: () => logged,
    stop: () => child.stop(),
  };
}

async function waitUntilReady(url: string, child: Child, label: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(
        `the service (${label}) exited before it was ready ` +
          `(${child.process.exitCode ?? child.process.signalCode}):\n${child.output()}`,
      );
    }
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await child.stop();
  throw new Error(
    `the service (${label}) was not ready within ${READY_TIMEOUT_MS} ms:\n${child.output()}`,
  );
}
