import type { BenchDatabase } from './options.js';
import type { PeerName } from './scenarios/index.js';
import { spawnChild, type Child } from './processes.js';

const READY_TIMEOUT_MS = 60_000;

export interface RunningPeer {
  name: PeerName;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** What the peers are told: the oidc-provider peer's client, the engine of the same-writes peer. */
export interface PeerSettings {
  client: { id: string; secret: string; scope: string };
  db: BenchDatabase;
}

/** Each peer is a process of its own: bench/peers/<name>.ts, run in production mode. */
export async function startPeers(
  repository: string,
  names: readonly PeerName[],
  settings: PeerSettings,
): Promise<Map<PeerName, RunningPeer>> {
  const peers = await Promise.allSettled(
    names.map((name) => startPeer(repository, name, settings)),
  );
  const started = new Map<PeerName, RunningPeer>();
  const failures: string[] = [];
  for (const peer of peers) {
    if (peer.status === 'fulfilled') started.set(peer.value.name, peer.value);
    else failures.push(String(peer.reason instanceof Error ? peer.reason.message : peer.reason));
  }
  if (failures.length) {
    await Promise.all([...started.values()].map((peer) => peer.stop()));
    throw new Error(failures.join('\n'));
  }
  return started;
}

async function startPeer(
  repository: string,
  name: PeerName,
  { client, db }: PeerSettings,
): Promise<RunningPeer> {
  let announced: (url: string) => void = () => {};
  const ready = new Promise<string>((resolve) => (announced = resolve));
  const child: Child = spawnChild(process.execPath, ['--import', 'tsx', `bench/peers/${name}.ts`], {
    cwd: repository,
    env: {
      NODE_ENV: 'production',
      PEER_CLIENT_ID: client.id,
      PEER_CLIENT_SECRET: client.secret,
      PEER_SCOPE: client.scope,
      PEER_DB: db,
      ...(process.env.BENCH_DATABASE_URL && {
        BENCH_DATABASE_URL: process.env.BENCH_DATABASE_URL,
      }),
    },
    onLine: (line, stream) => {
      if (stream === 'stdout' && line.startsWith('ready ')) {
        announced(line.slice('ready '.length).trim());
      }
    },
  });
  const failed = child.exited.then(() => {
    throw new Error(`peer ${name} exited before it was ready:\n${child.output()}`);
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`peer ${name} was not ready within ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
  });
  try {
    const url = await Promise.race([ready, failed, timeout]);
    // The same-writes peer drops its database before it exits.
    return { name, url, pid: child.process.pid!, stop: () => child.stop(10_000) };
  } catch (error) {
    await child.stop(1000);
    throw error;
  } finally {
    clearTimeout(timer);
    failed.catch(() => {});
  }
}
