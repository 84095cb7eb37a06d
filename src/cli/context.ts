import type { DatabaseLocation } from '../db/dialects/index.js';
import type { CliDeployment } from '../deployment/cli-deployment.js';

/** Which database and issuer a CLI run uses: said on stderr, and beside every --json result. */
export interface CliContext {
  database: DatabaseLocation;
  deployment: CliDeployment;
  /** Whether this shell set AUTH_URL (or PORT): then an issuer of its own that is not used is named. */
  shellSetsIssuer: boolean;
}

/** The stderr line: "cli: SQLite database /srv/data/service.sqlite; issuer https://… (…)". */
export function describeContext({ database, deployment, shellSetsIssuer }: CliContext): string {
  const source =
    deployment.issuerSource === 'server'
      ? 'recorded by the server at its start' +
        (shellSetsIssuer && deployment.ignoredIssuer
          ? `; this shell's ${deployment.ignoredIssuer} is not used`
          : '')
      : "this shell's AUTH_URL: no server has started on this database yet";
  return `cli: ${database.text}; issuer ${deployment.issuer} (${source})`;
}

/** The `cli` member of --json output (added beside the result's own members). */
export function contextFields({ database, deployment }: CliContext) {
  return {
    database: database.fields,
    issuer: deployment.issuer,
    issuer_source: deployment.issuerSource,
    ...(deployment.recordedAt !== undefined && { recorded_at: deployment.recordedAt }),
  };
}
