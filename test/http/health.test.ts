import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { checkWritable, openDatabase } from '../../src/db/database.js';
import { healthRouter } from '../../src/http/health.js';
import { assertResponseMatches } from '../support/openapi-contract.js';
import { describeEachDialect } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';

describeEachDialect('readiness', (database) => {
  async function readyz(
    isShuttingDown: boolean,
    probe: () => Promise<void> = () => checkWritable(database().db, Date.now()),
  ) {
    const app = express();
    app.use((req, _res, next) => {
      req.log = silentLogger;
      next();
    });
    app.use(healthRouter(probe, () => isShuttingDown));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      return { status: response.status, headers: response.headers, body: await response.json() };
    } finally {
      server.close();
    }
  }

  it('is 503 while the process is shutting down', async () => {
    const response = await readyz(true);
    assertResponseMatches('GET', '/readyz', response);
    assert.equal(response.status, 503);
    assert.equal((response.body as { shutting_down: boolean }).shutting_down, true);
  });

  it('is 503 when the database does not answer', async () => {
    const response = await readyz(false, () => Promise.reject(new Error('connection refused')));
    assertResponseMatches('GET', '/readyz', response);
    assert.equal(response.status, 503);
    assert.deepEqual(response.body, { status: 'unavailable', checks: { database: 'error' } });
  });

  it('is 503 while no write can begin (the write lock held elsewhere), and ready once it can', async () => {
    // Another process holds the database's write lock (SQLite) or the probe's table (PostgreSQL):
    // reads still work, so a `select 1` probe would have called this ready.
    const other = openDatabase(database().config, silentLogger);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = () => {};
    const held = new Promise<void>((resolve) => (holding = resolve));
    const holder = other.transaction(async (trx) => {
      if (database().dialect === 'postgres') await trx.raw('lock table service_probes');
      else await trx('service_probes').insert({ name: 'held elsewhere', checked_at: 0 });
      holding();
      await released;
    });
    try {
      await held;
      const response = await readyz(false);
      assert.equal(response.status, 503);
      assert.deepEqual(response.body, { status: 'unavailable', checks: { database: 'error' } });
    } finally {
      release();
      await holder;
      await other.destroy();
    }
    assert.equal((await readyz(false)).status, 200);
  });
});
