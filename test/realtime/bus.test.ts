import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Logger } from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { notificationChannelName } from '../../src/db/dialects/postgres-notifications.js';
import { deploymentIdentity } from '../../src/db/notifications.js';
import { createLogger } from '../../src/logging.js';
import type { RealtimeBus, RealtimeMessage } from '../../src/realtime/bus.js';
import { createRealtimeBus } from '../../src/realtime/compose.js';
import { isPostgresReachable, POSTGRES_URL } from '../support/databases.js';
import { LARGE_BODY, MESSAGES_EACH } from './fixtures/cluster-plan.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PROBE = 'test.probe';

/** A logger whose lines the test can read. */
function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: createLogger('debug', { write: (line: string) => lines.push(line) }), lines };
}

/** Everything that reaches a new subscriber of `bus`, the probes of connected() aside. */
function record(bus: RealtimeBus): RealtimeMessage[] {
  const received: RealtimeMessage[] = [];
  bus.subscribe((message) => {
    if (message.topic !== PROBE) received.push(message);
  });
  return received;
}

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

/**
 * Waits until every bus hears every one of them: a bus that was just opened (or lost its
 * connection) may not listen yet, and what is published before it does is not for it.
 */
async function connected(buses: RealtimeBus[], timeoutMs = 10_000): Promise<void> {
  const heard = buses.map(() => new Set<number>());
  const stops = buses.map((bus, index) =>
    bus.subscribe((message) => {
      if (message.topic === PROBE) heard[index]!.add((message.body as { from: number }).from);
    }),
  );
  try {
    const deadline = Date.now() + timeoutMs;
    while (!heard.every((from) => from.size === buses.length)) {
      if (Date.now() > deadline) throw new Error('the buses do not hear each other');
      await Promise.all(
        buses.map((bus, from) => bus.publish({ topic: PROBE, body: { from } }).catch(() => {})),
      );
      await delay(50);
    }
  } finally {
    for (const stop of stops) stop();
  }
}

/**
 * Publishes a marker from `bus` and waits until every recorder has it: then everything `bus`
 * published before has arrived too (one publisher's messages keep their order).
 */
async function fence(bus: RealtimeBus, recorders: RealtimeMessage[][]): Promise<void> {
  const marker = randomBytes(6).toString('hex');
  await bus.publish({ topic: 'test.fence', body: marker });
  const arrived = (received: RealtimeMessage[]) =>
    received.some((message) => message.topic === 'test.fence' && message.body === marker);
  await until(() => recorders.every(arrived), 'the fence');
}

const withoutFences = (received: RealtimeMessage[]) =>
  received.filter((message) => message.topic !== 'test.fence');

interface Transport {
  /** False, having printed why, when the transport cannot be reached here. */
  available(): Promise<boolean>;
  /** A new deployment: the configuration every one of its processes loads. */
  deployment(): Config;
  /** Buses of one deployment in this test process, standing for that many processes. */
  processes: number;
}

/** What every transport must do, with `transport.processes` buses per deployment. */
function describeTransport(title: string, transport: Transport, more?: () => void): void {
  describe(`realtime bus: ${title}`, function () {
    let config: Config;
    let log: ReturnType<typeof capturingLogger>;
    let buses: RealtimeBus[];
    const opened: RealtimeBus[] = [];

    const open = (deployment: Config) => {
      const bus = createRealtimeBus(deployment, log.logger);
      opened.push(bus);
      return bus;
    };

    before(async function () {
      if (!(await transport.available())) this.skip();
    });

    beforeEach(async () => {
      log = capturingLogger();
      config = transport.deployment();
      buses = Array.from({ length: transport.processes }, () => open(config));
      await connected(buses);
    });

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((bus) => bus.close()));
    });

    it('delivers a message to every subscriber of every process once, never inside publish()', async () => {
      const recorders = buses.flatMap((bus) => [record(bus), record(bus)]);
      const published = buses[0]!.publish({
        topic: 'lobby.update',
        body: { eventId: 'e1', list: [1, null] },
      });
      assert.ok(recorders.every((received) => received.length === 0));
      await published;
      await fence(buses[0]!, recorders);
      for (const received of recorders) {
        assert.deepEqual(withoutFences(received), [
          { topic: 'lobby.update', body: { eventId: 'e1', list: [1, null] } },
        ]);
      }
    });

    it("delivers 200 messages published at once, each publisher's in order", async () => {
      const recorders = buses.map(record);
      const each = 200 / buses.length;
      const sent: Promise<void>[] = [];
      for (let sequence = 0; sequence < each; sequence++) {
        buses.forEach((bus, from) =>
          sent.push(bus.publish({ topic: 'n', body: { from, sequence } })),
        );
      }
      await Promise.all(sent);
      await until(() => recorders.every((received) => received.length === 200), '200 messages');
      for (const received of recorders) {
        buses.forEach((_, from) => {
          const sequences = received
            .map((message) => message.body as { from: number; sequence: number })
            .filter((body) => body.from === from)
            .map((body) => body.sequence);
          assert.deepEqual(sequences, [...Array(each).keys()]);
        });
      }
    });

    it('delivers a 100 KB body intact, and what follows it after it', async () => {
      const recorders = buses.map(record);
      const large = { topic: 'large', body: { text: LARGE_BODY, quote: '"\\:0:1:' } };
      assert.ok(Buffer.byteLength(JSON.stringify(large)) > 100_000);
      const publisher = buses.at(-1)!;
      await Promise.all([publisher.publish(large), publisher.publish({ topic: 'after', body: 1 })]);
      await until(() => recorders.every((received) => received.length === 2), 'both messages');
      for (const received of recorders)
        assert.deepEqual(received, [large, { topic: 'after', body: 1 }]);
    });

    it("never delivers another deployment's messages", async () => {
      const other = open(transport.deployment());
      await connected([other]);
      const ours = buses.map(record);
      const theirs = record(other);
      await other.publish({ topic: 'theirs', body: 1 });
      await fence(other, [theirs]);
      await buses[0]!.publish({ topic: 'ours', body: 2 });
      await fence(buses[0]!, ours);
      for (const received of ours)
        assert.deepEqual(withoutFences(received), [{ topic: 'ours', body: 2 }]);
      assert.deepEqual(withoutFences(theirs), [{ topic: 'theirs', body: 1 }]);
    });

    it('stops calling a listener once it unsubscribes', async () => {
      const kept = buses.map(record);
      const dropped: RealtimeMessage[] = [];
      const unsubscribe = buses.at(-1)!.subscribe((message) => dropped.push(message));
      await buses[0]!.publish({ topic: 'first', body: 1 });
      await fence(buses[0]!, kept);
      unsubscribe();
      unsubscribe();
      await buses[0]!.publish({ topic: 'second', body: 2 });
      await fence(buses[0]!, kept);
      assert.deepEqual(
        withoutFences(dropped).map((message) => message.topic),
        ['first'],
      );
      for (const received of kept) {
        assert.deepEqual(
          withoutFences(received).map((message) => message.topic),
          ['first', 'second'],
        );
      }
    });

    it('logs a listener that throws and still calls the others', async () => {
      buses[0]!.subscribe(() => {
        throw new Error('listener broke');
      });
      const received = record(buses[0]!);
      await buses[0]!.publish({ topic: 'one', body: 1 });
      await buses[0]!.publish({ topic: 'two', body: 2 });
      await fence(buses[0]!, [received]);
      assert.deepEqual(
        withoutFences(received).map((message) => message.topic),
        ['one', 'two'],
      );
      assert.equal(log.lines.filter((line) => line.includes('listener broke')).length, 3);
    });

    it('refuses what it cannot carry, and publishing after close()', async () => {
      const bus = buses[0]!;
      await assert.rejects(bus.publish({ topic: '', body: 1 }), TypeError);
      await assert.rejects(bus.publish({ topic: 'big', body: 10n }), TypeError);
      await bus.close();
      await bus.close();
      await assert.rejects(bus.publish({ topic: 'late', body: 1 }), /closed/);
    });

    more?.();
  });
}

describeTransport('local (SQLite, one process)', {
  available: async () => true,
  deployment: () => loadConfig({ NODE_ENV: 'test', SQLITE_PATH: temporarySqlitePath() }),
  processes: 1,
});

describe('realtime bus: local (SQLite) across node:cluster workers', () => {
  it("delivers each worker's messages to both workers once, in order, large ones intact", () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'test/realtime/fixtures/local-bus-cluster.ts'],
      { cwd: REPOSITORY, encoding: 'utf8', timeout: 30_000 },
    );
    assert.equal(run.status, 0, run.stderr);
    const reports = JSON.parse(run.stdout.trim()) as Record<string, RealtimeMessage[]>;
    assert.deepEqual(Object.keys(reports).sort(), ['1', '2']);
    for (const received of Object.values(reports)) {
      assert.equal(received.length, 2 * MESSAGES_EACH + 1);
      for (const from of [1, 2]) {
        const sequences = received
          .filter((message) => message.topic === 'count')
          .map((message) => message.body as { from: number; sequence: number })
          .filter((body) => body.from === from)
          .map((body) => body.sequence);
        assert.deepEqual(sequences, [...Array(MESSAGES_EACH).keys()]);
      }
      const large = received.filter((message) => message.topic === 'large');
      assert.deepEqual(large, [{ topic: 'large', body: { from: 1, text: LARGE_BODY } }]);
    }
  });
});

describeTransport(
  'PostgreSQL LISTEN/NOTIFY',
  {
    available: isPostgresReachable,
    deployment: () => postgresDeployment(POSTGRES_URL),
    processes: 2,
  },
  () => {
    it('listens again after its connection is killed, and later messages arrive', async function () {
      const log = capturingLogger();
      const config = postgresDeployment(POSTGRES_URL);
      const buses = [createRealtimeBus(config, log.logger), createRealtimeBus(config, log.logger)];
      try {
        await connected(buses);
        const schema = (config.database as { searchPath: string }).searchPath;
        const killed = await killListeners(notificationChannelName('realtime', schema));
        assert.equal(killed, 2);
        await connected(buses);
        const recorders = buses.map(record);
        for (let sequence = 0; sequence < 20; sequence++) {
          void buses[0]!.publish({ topic: 'after', body: sequence });
        }
        await until(() => recorders.every((received) => received.length === 20), '20 messages');
        for (const received of recorders) {
          assert.deepEqual(
            received.map((message) => message.body),
            [...Array(20).keys()],
          );
        }
        const warnings = log.lines.filter((line) => line.includes('notification listener lost'));
        assert.equal(warnings.length, 2);
      } finally {
        await Promise.all(buses.map((bus) => bus.close()));
      }
    });

    it('rejects publishing when the database is unreachable, and closes at once', async () => {
      const log = capturingLogger();
      const unreachable = 'postgres://someone:s3cret-password@127.0.0.1:1/nowhere';
      const bus = createRealtimeBus(postgresDeployment(unreachable), log.logger);
      await assert.rejects(bus.publish({ topic: 'lost', body: 1 }));
      await until(() => log.lines.some((line) => line.includes('listener lost')), 'a warning');
      const started = Date.now();
      await bus.close();
      assert.ok(Date.now() - started < 500, `close() took ${Date.now() - started} ms`);
      assert.ok(
        !log.lines.some((line) => line.includes('s3cret')),
        'a log line holds the password',
      );
    });
  },
);

describeTransport(
  'Redis pub/sub',
  {
    available: redisAvailable,
    deployment: () =>
      loadConfig({ NODE_ENV: 'test', SQLITE_PATH: temporarySqlitePath(), REDIS_URL }),
    processes: 2,
  },
  () => {
    it('closes at once while Redis is unreachable, settling what was being published', async () => {
      const log = capturingLogger();
      const unreachable = 'redis://:s3cret-password@127.0.0.1:1';
      const config = loadConfig({
        NODE_ENV: 'test',
        SQLITE_PATH: temporarySqlitePath(),
        REDIS_URL: unreachable,
      });
      const bus = createRealtimeBus(config, log.logger);
      const pending = bus.publish({ topic: 'lost', body: 1 });
      await until(
        () => log.lines.some((line) => line.includes('Redis connection lost')),
        'a warning',
      );
      const started = Date.now();
      await bus.close();
      assert.ok(Date.now() - started < 200, `close() took ${Date.now() - started} ms`);
      // ioredis keeps it queued until its command timeout.
      await assert.rejects(pending, /timed out/);
      assert.ok(
        !log.lines.some((line) => line.includes('s3cret')),
        'a log line holds the password',
      );
    });
  },
);

describe('deployment identity', () => {
  it('names the database without credentials, the same for every process', () => {
    const identity = (url: string, schema?: string) =>
      deploymentIdentity({
        client: 'postgres',
        connectionString: url,
        poolMax: 1,
        searchPath: schema,
      });
    const a = identity('postgres://alice:one@db.example:5433/hiring', 'tenant_a');
    assert.equal(a, identity('postgres://bob:two@db.example:5433/hiring', 'tenant_a'));
    assert.ok(!a.includes('one') && !a.includes('alice'));
    assert.notEqual(a, identity('postgres://alice:one@db.example:5433/hiring', 'tenant_b'));
    assert.notEqual(a, identity('postgres://alice:one@db.example:5433/other', 'tenant_a'));
    assert.notEqual(a, identity('postgres://alice:one@db2.example:5433/hiring', 'tenant_a'));
    const file = (filename: string) => deploymentIdentity({ client: 'sqlite', filename });
    assert.equal(file('data/service.sqlite'), file(join(process.cwd(), 'data/service.sqlite')));
    assert.notEqual(file('data/service.sqlite'), file('data/other.sqlite'));
  });

  it('gives each schema a PostgreSQL channel of its own, a valid identifier', () => {
    assert.equal(notificationChannelName('realtime', 'test_ab12'), 'hpa_realtime_test_ab12');
    assert.equal(notificationChannelName('realtime'), 'hpa_realtime_public');
    const long = notificationChannelName('realtime', 'a'.repeat(63));
    assert.match(long, /^hpa_realtime_[0-9a-f]{32}$/);
    assert.notEqual(long, notificationChannelName('realtime', `${'a'.repeat(62)}b`));
    assert.match(
      notificationChannelName('realtime', 'Odd "Schema"'),
      /^hpa_realtime_[0-9a-f]{32}$/,
    );
  });
});

function temporarySqlitePath(): string {
  return join(tmpdir(), `hpa-realtime-${randomBytes(6).toString('hex')}`, 'service.sqlite');
}

function postgresDeployment(url: string): Config {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  return loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, DATABASE_SCHEMA: schema });
}

/** Terminates the backends listening on `channel`; returns how many. */
async function killListeners(channel: string): Promise<number> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where query = $1',
      [`LISTEN "${channel}"`],
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}

async function redisAvailable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    retryStrategy: () => null,
    connectTimeout: 2_000,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch (error) {
    console.log(
      `      ! Redis is unreachable at ${REDIS_URL} (${(error as Error).message}); ` +
        'skipping the Redis realtime bus tests',
    );
    return false;
  } finally {
    probe.disconnect();
  }
}
