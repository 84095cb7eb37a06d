import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { describeEachDialect } from '../support/databases.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

/** An IPv4 address of this machine that is not loopback: how another machine would reach it. */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
}

/** The status of a GET, or the connection error's code when nothing listens there. */
async function statusOf(url: string, headers: Record<string, string> = {}): Promise<string> {
  try {
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    return String(response.status);
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code ?? 'failed';
  }
}

/**
 * Issue 18 item 6: the development outbox lists live password-reset links, so it is served only
 * to a browser on the service's own machine, judged by the connection (never by what a client
 * or proxy says in a header); and in development the service listens on loopback unless HOST
 * says otherwise. Both as a cluster of two workers, as `WORKERS=2 npm start` runs it.
 */
describeEachDialect('the development outbox and listening address (cluster)', (database) => {
  const external = externalAddress();
  const services: ServiceProcess[] = [];

  before(function () {
    if (!external) {
      console.log('      ! this machine has no non-loopback IPv4 address; skipping');
      this.skip();
    }
  });
  after(async () => {
    await Promise.all(services.map((service) => service.stop()));
  });

  const development = { NODE_ENV: 'development', WORKERS: '2' };
  const port = (service: ServiceProcess) => new URL(service.url).port;

  it('serves the outbox to loopback clients only, whatever the forwarding headers say', async function () {
    this.timeout(90_000);
    // Every interface, behind a proxy it trusts: the strictest setting for the outbox to hold in.
    const service = await startServiceProcess(
      database(),
      { ...development, HOST: '0.0.0.0', TRUST_PROXY: 'true' },
      'cluster',
    );
    services.push(service);
    const local = `http://127.0.0.1:${port(service)}/console/dev/outbox`;
    const remote = `http://${external}:${port(service)}/console/dev/outbox`;
    const answers = {
      loopback: await statusOf(local),
      'loopback, forwarded for another address': await statusOf(local, {
        'x-forwarded-for': '203.0.113.7',
      }),
      'loopback, Forwarded: for= another address': await statusOf(local, {
        forwarded: 'for=203.0.113.7;proto=https',
      }),
      'loopback, forwarded for loopback': await statusOf(local, { 'x-forwarded-for': '127.0.0.1' }),
      'another interface': await statusOf(remote),
      'another interface, claiming loopback': await statusOf(remote, {
        'x-forwarded-for': '127.0.0.1',
        'x-real-ip': '127.0.0.1',
        forwarded: 'for=127.0.0.1',
      }),
    };
    console.log(`      ${JSON.stringify(answers)}`);
    assert.deepEqual(answers, {
      loopback: '200',
      'loopback, forwarded for another address': '404',
      'loopback, Forwarded: for= another address': '404',
      'loopback, forwarded for loopback': '200',
      'another interface': '404',
      'another interface, claiming loopback': '404',
    });
    // The other console pages are served to every address as before.
    assert.equal(await statusOf(`http://${external}:${port(service)}/console/sign-in`), '200');
  });

  it('listens on loopback only in development when HOST is unset', async function () {
    this.timeout(90_000);
    const service = await startServiceProcess(database(), { ...development, HOST: '' }, 'cluster');
    services.push(service);
    const answers = {
      loopback: await statusOf(`http://127.0.0.1:${port(service)}/readyz`),
      'another interface': await statusOf(`http://${external}:${port(service)}/readyz`),
    };
    console.log(`      ${JSON.stringify(answers)}`);
    assert.deepEqual(answers, { loopback: '200', 'another interface': 'ECONNREFUSED' });
  });
});
