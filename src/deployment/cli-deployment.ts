import type { Config } from '../config.js';
import { allowsSandboxTokens, type RecordedDeployment } from './deployment-settings.js';

/**
 * How the admin CLI acts on a deployment's database: for the issuer and audience of the tokens
 * it mints, the server's recorded settings when a server has started there (the CLI's own
 * AUTH_URL and API_URL are easily missing or stale, and tokens for another issuer are refused);
 * its own configuration only before any server has.
 */
export interface CliDeployment {
  issuer: string;
  audience: string;
  /** Where `issuer` and `audience` come from. */
  issuerSource: 'server' | 'configuration';
  /** When the server recorded them (issuerSource `server`). */
  recordedAt?: number;
  /** The CLI's own AUTH_URL when it names another issuer than the server's: not used. */
  ignoredIssuer?: string;
  /** Why `token issue` is refused here; null when sandbox tokens may be minted. */
  sandboxRefusal: string | null;
}

export function cliDeployment(
  own: Config,
  recorded: RecordedDeployment | undefined,
): CliDeployment {
  const refusal = sandboxRefusal(own, recorded);
  if (!recorded) {
    return {
      issuer: own.authUrl,
      audience: own.apiUrl,
      issuerSource: 'configuration',
      sandboxRefusal: refusal,
    };
  }
  return {
    issuer: recorded.issuer,
    audience: recorded.audience,
    issuerSource: 'server',
    recordedAt: recorded.recordedAt,
    ...(own.authUrl !== recorded.issuer && { ignoredIssuer: own.authUrl }),
    sandboxRefusal: refusal,
  };
}

/**
 * Why sandbox tokens are refused, or null. The deployment decides: a server that runs in
 * production refuses them unless its own environment says CLI_SANDBOX_TOKENS=enabled, whatever
 * the CLI's shell says. A shell that says NODE_ENV=production refuses them too (without its own
 * CLI_SANDBOX_TOKENS=enabled), and decides alone before any server has started.
 */
export function sandboxRefusal(own: Config, recorded?: RecordedDeployment): string | null {
  if (recorded && !recorded.sandboxTokens) {
    return (
      `token issue is refused: the server of this database runs with NODE_ENV=${recorded.environment} ` +
      `(as it recorded at its start, ${new Date(recorded.recordedAt).toISOString()}); ` +
      "sandbox tokens need CLI_SANDBOX_TOKENS=enabled in the server's environment, then a restart"
    );
  }
  if (!allowsSandboxTokens(own)) {
    return (
      'token issue is refused when NODE_ENV=production; set CLI_SANDBOX_TOKENS=enabled to ' +
      'allow sandbox tokens on this deployment'
    );
  }
  return null;
}
