import assert from 'node:assert/strict';
import { describeEachDialect } from '../support/databases.js';
import {
  CLUSTER_WORKERS,
  startServiceProcess,
  type ServiceProcess,
} from '../support/service-process.js';

/**
 * The fixture every production-default suite stands on: the built service, NODE_ENV=production,
 * a primary and two workers on one port. A worker killed under it is reported as a crash and
 * replaced, and the service keeps answering.
 */
describeEachDialect('the production default: a cluster of two workers', (database) => {
  let service: ServiceProcess | undefined;
  after(async () => {
    await service?.stop();
  });

  it('serves from two workers, reports a dead worker and replaces it', async function () {
    this.timeout(90_000);
    service = await startServiceProcess(database(), {}, 'cluster');
    assert.equal(service.workerPids().length, CLUSTER_WORKERS);
    assert.ok(service.workerRss().every((bytes) => bytes > 10 * 1024 * 1024));
    assert.deepEqual(service.crashes(), []);

    const victim = service.killWorker();
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const pids = service.workerPids();
      if (pids.length === CLUSTER_WORKERS && !pids.includes(victim)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(!service.workerPids().includes(victim));
    assert.equal(service.crashes().length, 1, service.output());
    assert.match(service.crashes()[0]!, /worker died unexpectedly/);
    assert.equal((await fetch(`${service.url}/readyz`)).status, 200);
  });
});
