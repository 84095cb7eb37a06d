import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo, LookupFunction } from 'node:net';
import { checkEndpointUrl } from '../../../src/webhooks/ssrf/endpoint-url.js';
import { createGuardedAgent } from '../../../src/webhooks/ssrf/guarded-agent.js';
import {
  createGuardedLookup,
  WEBHOOK_DESTINATION_REFUSED,
  WebhookDestinationRefused,
} from '../../../src/webhooks/ssrf/guarded-lookup.js';
import type { HostResolver } from '../../../src/webhooks/ssrf/host-resolver.js';

/** A resolver whose table the test may change between calls, like DNS under rebinding. */
function switchableResolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve: HostResolver = async (hostname) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, table, asked };
}

type Outcome = { status: number } | { error: NodeJS.ErrnoException };

function send(url: string, agent: http.Agent, extra: http.RequestOptions = {}): Promise<Outcome> {
  const request = url.startsWith('https:') ? https.request : http.request;
  return new Promise((resolve) => {
    const req = request(url, { ...extra, agent, method: 'POST', timeout: 5_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode! }));
    });
    req.on('error', (error) => resolve({ error }));
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.end('{}');
  });
}
/** net.connect's option, passed through the agent; missing from the request options' type. */
const happyEyeballs = (on: boolean) => ({ autoSelectFamily: on }) as http.RequestOptions;

function refusedWith(outcome: Outcome, addressClass: string): WebhookDestinationRefused {
  assert.ok('error' in outcome, `expected a refusal, got ${JSON.stringify(outcome)}`);
  assert.ok(outcome.error instanceof WebhookDestinationRefused, String(outcome.error));
  assert.equal(outcome.error.code, WEBHOOK_DESTINATION_REFUSED);
  assert.equal(outcome.error.addressClass, addressClass);
  return outcome.error;
}

describe('webhook connections through the guarded agent', () => {
  let server: http.Server;
  let port: number;
  let connections = 0;
  const agents: http.Agent[] = [];

  before(async () => {
    server = http.createServer((_req, res) => res.end('ok'));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  beforeEach(() => {
    connections = 0;
  });

  afterEach(() => {
    for (const agent of agents.splice(0)) agent.destroy();
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function agent(options: Parameters<typeof createGuardedAgent>[0]): http.Agent {
    const created = createGuardedAgent(options);
    agents.push(created);
    return created;
  }

  it('refuses a name that now resolves to loopback, before any connection (DNS rebinding)', async () => {
    const dns = switchableResolver({ 'rebind.example': ['93.184.215.14'] });
    const url = `http://rebind.example:${port}/hook`;
    const policy = { allowPrivateNetworks: false, requireHttps: false };
    await checkEndpointUrl(url, policy, { resolve: dns.resolve });

    dns.table['rebind.example'] = ['127.0.0.1'];
    const guarded = agent({ protocol: 'http:', allowPrivateNetworks: false, resolve: dns.resolve });
    const error = refusedWith(await send(url, guarded), 'loopback');
    assert.equal(error.hostname, 'rebind.example');
    assert.equal(error.address, '127.0.0.1');
    assert.match(error.message, /rebind\.example resolves to a loopback address/);
    assert.doesNotMatch(error.message, /127\.0\.0\.1/);
    assert.equal(connections, 0);
  });

  it('refuses with and without happy eyeballs, and whatever lookup the request brings', async () => {
    const dns = switchableResolver({ 'rebind.example': ['::1', '127.0.0.1'] });
    const guarded = agent({ protocol: 'http:', allowPrivateNetworks: false, resolve: dns.resolve });
    const url = `http://rebind.example:${port}/hook`;
    refusedWith(await send(url, guarded, happyEyeballs(false)), 'loopback');
    refusedWith(await send(url, guarded, happyEyeballs(true)), 'loopback');
    refusedWith(await send(url, guarded, { family: 4 }), 'loopback');
    const bypass: LookupFunction = (_hostname, _options, callback) =>
      callback(null, '127.0.0.1', 4);
    refusedWith(await send(url, guarded, { lookup: bypass }), 'loopback');
    assert.equal(connections, 0);
  });

  it('refuses a name with one public and one loopback address', async () => {
    const dns = switchableResolver({ 'mixed.example': ['93.184.215.14', '127.0.0.1'] });
    const guarded = agent({ protocol: 'http:', allowPrivateNetworks: false, resolve: dns.resolve });
    refusedWith(await send(`http://mixed.example:${port}/`, guarded), 'loopback');
    assert.equal(connections, 0);
  });

  it('refuses IP-literal hosts, which Node dials without a lookup', async () => {
    const dns = switchableResolver({});
    const guarded = agent({ protocol: 'http:', allowPrivateNetworks: false, resolve: dns.resolve });
    for (const [host, addressClass] of [
      ['127.0.0.1', 'loopback'],
      ['2130706433', 'loopback'],
      ['0177.0.0.1', 'loopback'],
      ['[::ffff:127.0.0.1]', 'loopback'],
      ['[::1]', 'loopback'],
      ['169.254.169.254', 'metadata'],
      ['10.0.0.5', 'private'],
    ]) {
      const error = refusedWith(await send(`http://${host}:${port}/`, guarded), addressClass!);
      assert.match(error.message, / is a/);
    }
    assert.deepEqual(dns.asked, []);
    assert.equal(connections, 0);
  });

  it('refuses a Unix socket and a request without a host', async () => {
    const guarded = agent({ protocol: 'http:', allowPrivateNetworks: true });
    refusedWith(
      await send(`http://hooks.example.com/`, guarded, { socketPath: '/tmp/x' }),
      'unix-socket',
    );
    const strict = agent({
      protocol: 'http:',
      allowPrivateNetworks: false,
      resolve: switchableResolver({ localhost: ['127.0.0.1'] }).resolve,
    });
    const outcome = await new Promise<Outcome>((resolve) => {
      const req = http.request({ agent: strict, port, method: 'GET' }, (res) => {
        res.resume();
        resolve({ status: res.statusCode! });
      });
      req.on('error', (error) => resolve({ error }));
      req.end();
    });
    refusedWith(outcome, 'loopback');
    assert.equal(connections, 0);
  });

  it('connects to private destinations when the policy allows them, with keep-alive', async () => {
    const dns = switchableResolver({ 'rebind.example': ['127.0.0.1'] });
    const guarded = agent({
      protocol: 'http:',
      allowPrivateNetworks: true,
      resolve: dns.resolve,
      keepAlive: true,
    });
    assert.deepEqual(await send(`http://rebind.example:${port}/hook`, guarded), { status: 200 });
    assert.deepEqual(await send(`http://rebind.example:${port}/hook`, guarded), { status: 200 });
    assert.deepEqual(await send(`http://127.0.0.1:${port}/hook`, guarded), { status: 200 });
    assert.equal(connections, 2, 'one kept-alive connection per host name');
  });

  it('guards https connections the same way', async () => {
    const dns = switchableResolver({ 'rebind.example': ['127.0.0.1'] });
    const strict = agent({ protocol: 'https:', allowPrivateNetworks: false, resolve: dns.resolve });
    refusedWith(await send(`https://rebind.example:${port}/`, strict), 'loopback');
    refusedWith(await send(`https://127.0.0.1:${port}/`, strict), 'loopback');
    assert.equal(connections, 0);

    // Allowed, the connection reaches the (plain http) server and TLS fails there.
    const open = agent({ protocol: 'https:', allowPrivateNetworks: true, resolve: dns.resolve });
    const outcome = await send(`https://rebind.example:${port}/`, open);
    assert.ok('error' in outcome && !(outcome.error instanceof WebhookDestinationRefused));
    assert.equal(connections, 1);
  });
});

describe('guarded lookup', () => {
  const dns = switchableResolver({
    'dual.example': ['2606:4700:4700::1111', '93.184.215.14'],
    'v6.example': ['2606:4700:4700::1111'],
    'private.example': ['10.0.0.5'],
  });
  const lookup = createGuardedLookup({ allowPrivateNetworks: false, resolve: dns.resolve });

  function call(hostname: string, options: Parameters<typeof lookup>[1]) {
    return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>(
      (resolve) =>
        lookup(hostname, options, (error, address, family) => resolve({ error, address, family })),
    );
  }

  it('answers like dns.lookup: all addresses, or the first of the wanted family', async () => {
    const all = await call('dual.example', { all: true });
    assert.equal(all.error, null);
    assert.deepEqual(all.address as LookupAddress[], [
      { address: '2606:4700:4700::1111', family: 6 },
      { address: '93.184.215.14', family: 4 },
    ]);
    assert.deepEqual(await call('dual.example', {}), {
      error: null,
      address: '2606:4700:4700::1111',
      family: 6,
    });
    assert.deepEqual(await call('dual.example', { family: 4 }), {
      error: null,
      address: '93.184.215.14',
      family: 4,
    });
    assert.deepEqual((await call('dual.example', { family: 'IPv4', all: true })).address, [
      { address: '93.184.215.14', family: 4 },
    ]);
    assert.deepEqual(await call('8.8.8.8', {}), { error: null, address: '8.8.8.8', family: 4 });
  });

  it('fails with the resolver error, ENOTFOUND for a missing family, and the refusal', async () => {
    assert.equal((await call('missing.example', {})).error?.code, 'ENOTFOUND');
    assert.equal((await call('v6.example', { family: 4 })).error?.code, 'ENOTFOUND');
    const refused = (await call('private.example', { all: true })).error;
    assert.ok(refused instanceof WebhookDestinationRefused);
    assert.equal(refused.addressClass, 'private');
    assert.equal((await call('127.0.0.1', {})).error?.code, WEBHOOK_DESTINATION_REFUSED);
  });

  it('refuses an answer that is not an IP address even when private networks are allowed', async () => {
    const broken = createGuardedLookup({
      allowPrivateNetworks: true,
      resolve: async () => [{ address: 'not-an-ip', family: 4 }],
    });
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      broken('odd.example', {}, (failure) => resolve(failure)),
    );
    assert.ok(error instanceof WebhookDestinationRefused);
    assert.equal(error.addressClass, 'not-an-address');
  });
});
