import assert from 'node:assert/strict';
import http from 'node:http';
import { describeEachDialect } from '../support/databases.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

/** Requests sent while one worker is stopped: the primary hands at least one to it. */
const REQUESTS = 6;
/** How long after the stopped worker's death every request must have settled. */
const SETTLE_MS = 10_000;

/**
 * The primary hands each connection to a worker and keeps it until the worker says it took it
 * (round-robin scheduling). A worker that dies before it says so must not leave its connection
 * open for ever in the primary: the client would wait for ever. Here one worker is stopped
 * (SIGSTOP: it reads nothing, so it takes nothing) while requests arrive, then killed; every
 * request must then be answered by the other worker or see its connection close.
 */
describeEachDialect('reliability: a worker that dies before it takes a connection', (database) => {
  let service: ServiceProcess | undefined;
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') console.log(service?.output());
    await service?.stop();
    service = undefined;
  });

  it('leaves no client waiting for ever: its connection is closed, the others are answered', async function () {
    this.timeout(60_000);
    service = await startServiceProcess(database(), {}, 'cluster');
    const [stopped, running] = service.workerPids();
    assert.ok(stopped && running, 'two workers');
    process.kill(stopped, 'SIGSTOP');
    const requests = Array.from({ length: REQUESTS }, () => settle(service!.url));
    // The running worker answers its share; the stopped one holds the rest unanswered.
    const answeredFirst = await Promise.race([
      Promise.any(requests.map((request) => request.then((outcome) => outcome === 'answered'))),
      new Promise((resolve) => setTimeout(() => resolve(false), 20_000)),
    ]);
    assert.equal(answeredFirst, true, 'the running worker answered');
    const pending = await pendingCount(requests);
    assert.ok(pending > 0, 'the stopped worker was handed a connection');

    process.kill(stopped, 'SIGKILL');
    const deadline = new Promise<'waiting'>((resolve) =>
      setTimeout(() => resolve('waiting'), SETTLE_MS),
    );
    const outcomes = await Promise.all(
      requests.map((request) => Promise.race([request, deadline])),
    );
    assert.ok(
      !outcomes.includes('waiting'),
      `every request settled after the worker died: ${outcomes.join(', ')}`,
    );
    assert.ok(outcomes.includes('closed'), `some connection was closed: ${outcomes.join(', ')}`);
  });
});

/** One request on a connection of its own: answered, or its connection closed unanswered. */
function settle(url: string): Promise<'answered' | 'closed'> {
  return new Promise((resolve) => {
    const request = http.get(`${url}/healthz`, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve('answered'));
    });
    request.on('error', () => resolve('closed'));
  });
}

/** How many of `requests` are unsettled once the event loop has gone round a few times. */
async function pendingCount(requests: Array<Promise<unknown>>): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  const settled = await Promise.all(
    requests.map((request) =>
      Promise.race([
        request.then(() => true),
        new Promise((resolve) => setImmediate(resolve, false)),
      ]),
    ),
  );
  return settled.filter((done) => !done).length;
}
