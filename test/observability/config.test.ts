import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { loadConfig } from '../../src/config.js';

describe('configuration of metrics and workers', () => {
  it('keeps metrics off and runs one process unless told otherwise', () => {
    const config = loadConfig({});
    assert.deepEqual(config.metrics, { token: undefined, port: undefined, host: '127.0.0.1' });
    assert.equal(config.workers, 1);
  });

  it('runs a worker per CPU in production, unless WORKERS says how many', () => {
    const production = { NODE_ENV: 'production', KEY_ENCRYPTION_SECRET: 'k'.repeat(32) };
    assert.equal(loadConfig(production).workers, availableParallelism());
    assert.equal(loadConfig({ ...production, WORKERS: '3' }).workers, 3);
  });

  it('refuses a short METRICS_TOKEN without echoing it, and a bad WORKERS or METRICS_PORT', () => {
    assert.throws(
      () => loadConfig({ METRICS_TOKEN: 'short-secret' }),
      (error: Error) =>
        /METRICS_TOKEN: .*\(got 12 characters\)/.test(error.message) &&
        !error.message.includes('short-secret'),
    );
    assert.throws(() => loadConfig({ WORKERS: '0' }), /WORKERS: /);
    assert.throws(() => loadConfig({ WORKERS: 'two' }), /WORKERS: /);
    assert.throws(() => loadConfig({ METRICS_PORT: '70000' }), /METRICS_PORT: /);
  });
});
