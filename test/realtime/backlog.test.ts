import assert from 'node:assert/strict';
import { createLogger } from '../../src/logging.js';
import { RealtimeBusBusyError } from '../../src/realtime/bus.js';
import { DatabaseBus } from '../../src/realtime/database-bus.js';

/**
 * A transport that stops taking messages (the database is slow, a worker is busy) does not make
 * a publishing process queue them without bound: past REALTIME_BACKLOG_MAX_BYTES in flight,
 * publish() refuses at once, logged once per overload, until the backlog drains.
 */
describe('the realtime bus backlog', () => {
  it('drops what passes the bound while the transport is stuck, and takes messages again after', async () => {
    const lines: string[] = [];
    const logger = createLogger('warn', { write: (line: string) => lines.push(line) });
    const stuck: Array<() => void> = [];
    const bus = new DatabaseBus(
      () => ({
        maxPayloadBytes: 7999,
        notify: () => new Promise<void>((resolve) => stuck.push(resolve)),
        close: async () => {},
      }),
      logger,
      100_000,
    );
    const body = { text: 'x'.repeat(10_000) };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, () => {
        const published = bus.publish({ topic: 'big', body });
        // Settled later, when the transport is unstuck; refusals settle at once.
        return Promise.race([published, new Promise((resolve) => setTimeout(resolve, 50))]);
      }),
    );
    const refused = outcomes.filter(
      (outcome) => outcome.status === 'rejected' && outcome.reason instanceof RealtimeBusBusyError,
    ).length;
    assert.equal(refused, 21, 'nine messages of 10 KB fit in 100,000 bytes');
    assert.equal(lines.filter((line) => line.includes('backlog is full')).length, 1);

    for (const release of stuck.splice(0)) release();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines.filter((line) => line.includes('backlog drained')).length, 1);
    const after = bus.publish({ topic: 'big', body });
    for (const release of stuck.splice(0)) release();
    await after;
    await bus.close();
  });
});
