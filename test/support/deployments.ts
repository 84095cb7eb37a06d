import { describeEachDialect, type TestDatabase } from './databases.js';
import { startServiceProcess } from './service-process.js';
import { startTestService } from './service.js';

/**
 * Where a suite's service runs:
 * - `in-process`: the service started inside the test process (startTestService);
 * - `cluster`: the production default — the built service, NODE_ENV=production, a primary and
 *   two workers sharing the port (startServiceProcess's `cluster`), so that a retry can land on
 *   the other worker and a worker that dies is seen.
 */
export type DeploymentKind = 'in-process' | 'cluster';

/** Hooks and tests of a cluster suite that set no timeout of their own. */
const CLUSTER_SUITE_TIMEOUT_MS = 120_000;

export const DEPLOYMENT_KINDS: readonly DeploymentKind[] = ['in-process', 'cluster'];

/** A running service of either kind, as the HTTP-only suites see it. */
export interface RunningDeployment {
  kind: DeploymentKind;
  url: string;
  /**
   * Stops the service. For a cluster it fails when a worker died while the suite ran (the
   * primary replaces it, so nothing else would show the crash).
   */
  stop(): Promise<void>;
}

/**
 * Starts the service of `kind` on the test database. `env` as the server's environment
 * (PORT and AUTH_URL from fixedAddress() bring a restarted service back on the same issuer).
 */
export async function startDeployment(
  database: TestDatabase,
  kind: DeploymentKind,
  env: Record<string, string> = {},
): Promise<RunningDeployment> {
  if (kind === 'in-process') {
    const service = await startTestService(database, { env });
    return {
      kind,
      url: service.url,
      async stop() {
        await service.stop();
        // The server closed its keep-alive sockets; this process's own HTTP client sees their
        // end only in a later turn of the event loop, and a restart on the same port with a
        // synchronous database driver can come before it: the client would send the next
        // requests on the closed sockets ("other side closed").
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
    };
  }
  const service = await startServiceProcess(database, env, 'cluster');
  return {
    kind,
    url: service.url,
    async stop() {
      await service.stop();
      const crashes = service.crashes();
      if (crashes.length > 0) {
        throw new Error(
          `${crashes.length} worker crash(es) while the suite ran:\n${crashes.join('\n')}\n` +
            `--- service output ---\n${service.output()}`,
        );
      }
    },
  };
}

/** Declares a suite once per deployment kind and dialect (each with its own database). */
export function describeEachDeployment(
  title: string,
  body: (database: () => TestDatabase, kind: DeploymentKind) => void,
): void {
  for (const kind of DEPLOYMENT_KINDS) {
    describeEachDialect(`${title} (${kind})`, (database) => body(database, kind), {
      // Starting a cluster (and building it, for the first suite) takes longer on a busy machine.
      ...(kind === 'cluster' && { timeoutMs: CLUSTER_SUITE_TIMEOUT_MS }),
    });
  }
}
