import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { DeploymentStore } from './deployment-store.js';

const SERVER = 'server';

/** What the server that owns a database runs as, as it recorded it at its last start. */
export interface RecordedDeployment {
  environment: Config['env'];
  /** Its AUTH_URL: the `iss` of every token it accepts. */
  issuer: string;
  /** Its API_URL: the `aud` of every access token it accepts. */
  audience: string;
  /** Whether `cli token issue` may mint sandbox tokens on this deployment. */
  sandboxTokens: boolean;
  recordedAt: number;
}

/** Sandbox tokens are a test convenience: never in production unless explicitly enabled. */
export function allowsSandboxTokens(config: Config): boolean {
  return config.env !== 'production' || config.cliSandboxTokens === 'enabled';
}

/**
 * The deployment's settings in its database. The server records them at every start, so that
 * the admin CLI, a process of its own with whatever environment its shell has, follows the
 * deployment: the issuer the server checks, and whether it is a production one.
 */
export class DeploymentSettings {
  constructor(
    private readonly store: DeploymentStore,
    private readonly clock: Clock,
  ) {}

  /** Called by the server before it serves: the last server to start speaks for the deployment. */
  async record(config: Config): Promise<void> {
    await this.store.save({
      role: SERVER,
      environment: config.env,
      issuer: config.authUrl,
      audience: config.apiUrl,
      sandbox_tokens: allowsSandboxTokens(config),
      recorded_at: this.clock.now(),
    });
  }

  /** What the server recorded; undefined while no server has started on this database. */
  async recorded(): Promise<RecordedDeployment | undefined> {
    const row = await this.store.find(SERVER);
    if (!row) return undefined;
    return {
      environment: row.environment as Config['env'],
      issuer: row.issuer,
      audience: row.audience,
      sandboxTokens: Boolean(row.sandbox_tokens),
      recordedAt: Number(row.recorded_at),
    };
  }
}
