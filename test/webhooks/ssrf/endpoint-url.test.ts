import assert from 'node:assert/strict';
import { TemporarilyUnavailable, ValidationError } from '../../../src/errors.js';
import {
  checkEndpointUrl,
  EndpointUrlRefused,
  type EndpointUrlPolicy,
} from '../../../src/webhooks/ssrf/endpoint-url.js';
import type { HostResolver } from '../../../src/webhooks/ssrf/host-resolver.js';

const PRODUCTION: EndpointUrlPolicy = { allowPrivateNetworks: false, requireHttps: true };
const DEVELOPMENT: EndpointUrlPolicy = { allowPrivateNetworks: true, requireHttps: false };

/** A resolver over a fixed table; any other name does not exist. */
function fakeResolver(table: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

const resolver = fakeResolver({
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'partner.example.org': ['203.0.114.20'],
  'intranet.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.215.14', '127.0.0.1'],
  'mapped.example.com': ['::ffff:192.168.1.1'],
  'rebind.example': ['93.184.215.14'],
  'nowhere.example.com': [],
});

async function refusal(
  raw: string,
  policy = PRODUCTION,
  resolve: HostResolver = resolver,
): Promise<EndpointUrlRefused> {
  try {
    await checkEndpointUrl(raw, policy, { resolve });
  } catch (error) {
    assert.ok(error instanceof EndpointUrlRefused, `${raw}: ${String(error)}`);
    return error;
  }
  assert.fail(`${raw} was accepted`);
}

describe('webhook endpoint URL check', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast, unspecified and metadata hosts in every spelling', async () => {
    const cases: [string, string][] = [
      ['https://127.0.0.1/hook', 'loopback'],
      ['https://2130706433/hook', 'loopback'],
      ['https://0x7f000001/hook', 'loopback'],
      ['https://0177.0.0.1/hook', 'loopback'],
      ['https://0x7f.1/hook', 'loopback'],
      ['https://127.1/hook', 'loopback'],
      ['https://%31%32%37.0.0.1/hook', 'loopback'],
      ['https://127.0.0.1:8443/hook', 'loopback'],
      ['https://[::1]/hook', 'loopback'],
      ['https://[0:0:0:0:0:0:0:1]/hook', 'loopback'],
      ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
      ['https://[::ffff:7f00:1]/hook', 'loopback'],
      ['https://[64:ff9b::7f00:1]/hook', 'loopback'],
      ['https://[64:ff9b::127.0.0.1]/hook', 'loopback'],
      ['https://[2002:7f00:1::1]/hook', 'loopback'],
      ['https://[::127.0.0.1]/hook', 'loopback'],
      ['https://10.1.2.3/hook', 'private'],
      ['https://167772165/hook', 'private'],
      ['https://172.16.0.1/hook', 'private'],
      ['https://172.31.255.254/hook', 'private'],
      ['https://192.168.0.10/hook', 'private'],
      ['https://[fc00::1]/hook', 'private'],
      ['https://[fd12:3456::1]/hook', 'private'],
      ['https://[fec0::1]/hook', 'private'],
      ['https://[::ffff:10.0.0.1]/hook', 'private'],
      ['https://169.254.169.254/latest/meta-data/', 'metadata'],
      ['https://0xa9fea9fe/latest/meta-data/', 'metadata'],
      ['https://100.100.100.200/', 'metadata'],
      ['https://[fd00:ec2::254]/', 'metadata'],
      ['https://[::ffff:169.254.169.254]/', 'metadata'],
      ['https://169.254.1.1/hook', 'link-local'],
      ['https://[fe80::1]/hook', 'link-local'],
      ['https://100.64.0.1/hook', 'cgnat'],
      ['https://0.0.0.0/hook', 'unspecified'],
      ['https://0/hook', 'unspecified'],
      ['https://[::]/hook', 'unspecified'],
      ['https://224.0.0.1/hook', 'multicast'],
      ['https://[ff02::1]/hook', 'multicast'],
      ['https://255.255.255.255/hook', 'broadcast'],
      ['https://192.0.2.1/hook', 'reserved'],
      ['https://240.0.0.1/hook', 'reserved'],
    ];
    for (const [raw, addressClass] of cases) {
      const error = await refusal(raw);
      assert.equal(error.problem, 'refused-address', raw);
      assert.equal(error.addressClass, addressClass, raw);
      assert.match(error.reason, /public internet/, raw);
    }
    assert.deepEqual(resolver.asked, [], 'IP literals are not resolved');
  });

  it('refuses local and metadata host names without resolving them', async () => {
    const cases: [string, string][] = [
      ['https://localhost/hook', 'loopback'],
      ['https://LOCALHOST./hook', 'loopback'],
      ['https://api.localhost/hook', 'loopback'],
      ['https://ｌｏｃａｌｈｏｓｔ/hook', 'loopback'],
      ['https://metadata.google.internal/computeMetadata/v1/', 'metadata'],
      ['https://metadata.google.internal./computeMetadata/v1/', 'metadata'],
      ['https://metadata/computeMetadata/v1/', 'metadata'],
      ['https://printer.local/hook', 'private'],
      ['https://billing.internal/hook', 'private'],
      ['https://nas.home.arpa/hook', 'private'],
      ['https://intranet/hook', 'private'],
    ];
    for (const [raw, addressClass] of cases) {
      const error = await refusal(raw);
      assert.equal(error.problem, 'refused-host', raw);
      assert.equal(error.addressClass, addressClass, raw);
    }
    assert.deepEqual(resolver.asked, []);
  });

  it('refuses a name when any of its addresses is not public', async () => {
    for (const [host, addressClass] of [
      ['intranet.example.com', 'private'],
      ['mixed.example.com', 'loopback'],
      ['mapped.example.com', 'private'],
    ]) {
      const error = await refusal(`https://${host}/hook`);
      assert.equal(error.problem, 'refused-address', host);
      assert.equal(error.addressClass, addressClass, host);
      assert.doesNotMatch(error.reason, /10\.0\.0\.5|127\.0\.0\.1|192\.168/, 'no internal address');
    }
  });

  it('refuses a name that does not resolve, and answers a resolver failure as temporary', async () => {
    assert.equal((await refusal('https://missing.example.com/hook')).problem, 'unresolvable');
    assert.equal((await refusal('https://nowhere.example.com/hook')).problem, 'unresolvable');
    const failing: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' });
    };
    await assert.rejects(
      checkEndpointUrl('https://hooks.example.com/', PRODUCTION, { resolve: failing }),
      TemporarilyUnavailable,
    );
    const hanging: HostResolver = () => new Promise(() => {});
    await assert.rejects(
      checkEndpointUrl('https://hooks.example.com/', PRODUCTION, {
        resolve: hanging,
        resolveTimeoutMs: 20,
      }),
      TemporarilyUnavailable,
    );
  });

  it('accepts public hosts and returns the normalised URL', async () => {
    const accepted = [
      ['https://hooks.example.com/webhooks?app=1', 'https://hooks.example.com/webhooks?app=1'],
      ['HTTPS://Hooks.Example.COM:8443/a/../b', 'https://hooks.example.com:8443/b'],
      ['https://partner.example.org', 'https://partner.example.org/'],
      ['https://rebind.example/hook', 'https://rebind.example/hook'],
      ['https://93.184.215.14/hook', 'https://93.184.215.14/hook'],
      ['https://1572394766/hook', 'https://93.184.215.14/hook'],
      ['https://[2606:4700:4700::1111]/hook', 'https://[2606:4700:4700::1111]/hook'],
      ['https://[::ffff:8.8.8.8]/hook', 'https://[::ffff:808:808]/hook'],
    ];
    for (const [raw, href] of accepted) {
      const url = await checkEndpointUrl(raw!, PRODUCTION, { resolve: resolver });
      assert.equal(url.href, href);
    }
  });

  it('lets private destinations and plain http through when the policy allows them, without resolving', async () => {
    const asked = resolver.asked.length;
    for (const raw of [
      'http://127.0.0.1:3000/hook',
      'http://localhost:3000/hook',
      'http://[::1]:3000/hook',
      'http://receiver:8080/hook',
      'https://intranet.example.com/hook',
    ]) {
      const url = await checkEndpointUrl(raw, DEVELOPMENT, { resolve: resolver });
      assert.equal(url.href, raw);
    }
    assert.equal(resolver.asked.length, asked);
    await checkEndpointUrl(
      'http://hooks.example.com/',
      { ...PRODUCTION, requireHttps: false },
      {
        resolve: resolver,
      },
    );
  });

  it('refuses what is not an absolute http(s) URL without credentials or a fragment', async () => {
    const cases: [string, string, EndpointUrlPolicy?][] = [
      ['http://hooks.example.com/hook', 'https-required'],
      ['ftp://hooks.example.com/', 'scheme'],
      ['file:///etc/passwd', 'scheme'],
      ['javascript:alert(1)', 'scheme'],
      ['gopher://127.0.0.1:6379/_INFO', 'scheme'],
      ['ws://hooks.example.com/', 'scheme', DEVELOPMENT],
      ['hooks.example.com/hook', 'malformed'],
      ['//hooks.example.com/hook', 'malformed'],
      ['/hook', 'malformed'],
      ['', 'malformed'],
      ['https:hooks.example.com', 'malformed'],
      ['https:/hooks.example.com', 'malformed'],
      ['https:///hook', 'malformed'],
      ['https://\\hooks.example.com/', 'malformed'],
      ['https://hooks.example.com:99999/', 'malformed'],
      ['https://256.0.0.1/', 'malformed'],
      ['https://[fe80::1%25eth0]/', 'malformed'],
      [' https://hooks.example.com/', 'malformed'],
      ['https://hooks.example.com/ ', 'malformed'],
      ['https://hooks.exa\tmple.com/', 'malformed'],
      ['https://hooks.example.com/\nhook', 'malformed'],
      ['https://user:secret@hooks.example.com/', 'userinfo'],
      ['https://user@hooks.example.com/', 'userinfo'],
      ['https://@hooks.example.com/', 'userinfo'],
      ['https://:@hooks.example.com/', 'userinfo'],
      ['https://hooks.example.com/hook#part', 'fragment'],
      ['https://hooks.example.com/hook#', 'fragment'],
      ['https://hooks.example.com:0/', 'port'],
      [`https://hooks.example.com/${'a'.repeat(2048)}`, 'too-long'],
      [`https://hooks.example.com/${'é'.repeat(400)}`, 'too-long'],
    ];
    for (const [raw, problem, policy = PRODUCTION] of cases) {
      const error = await refusal(raw, policy);
      assert.equal(error.problem, problem, raw);
      assert.ok(error instanceof ValidationError);
      assert.equal(error.field, 'url');
      assert.equal(error.message, error.reason);
      assert.doesNotMatch(error.reason, /secret/, 'the URL is never repeated');
    }
  });

  it('takes a URL of exactly the maximum length', async () => {
    const base = 'https://hooks.example.com/';
    const raw = base + 'a'.repeat(2048 - base.length);
    assert.equal((await checkEndpointUrl(raw, PRODUCTION, { resolve: resolver })).href, raw);
  });
});
