import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  classifyAddress,
  isPublicAddress,
  refusedAddressClass,
  type AddressClass,
} from '../../../src/webhooks/ssrf/destination-policy.js';
import { parseIpAddress } from '../../../src/webhooks/ssrf/ip-address.js';

function assertClasses(cases: readonly [string, AddressClass][]) {
  const wrong = cases
    .map(([ip, expected]) => ({ ip, expected, actual: classifyAddress(ip) }))
    .filter(({ expected, actual }) => expected !== actual);
  assert.deepEqual(wrong, []);
}

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
const dotted = ([a, b, c, d]: [number, number, number, number]) => `${a}.${b}.${c}.${d}`;
const hex16 = (high: number, low: number) => (high * 256 + low).toString(16);

describe('webhook destination policy', () => {
  it('classifies every special IPv4 range at its edges and just outside them', () => {
    assertClasses([
      ['0.0.0.0', 'unspecified'],
      ['0.255.255.255', 'unspecified'],
      ['1.0.0.0', 'public'],
      ['9.255.255.255', 'public'],
      ['10.0.0.0', 'private'],
      ['10.255.255.255', 'private'],
      ['11.0.0.0', 'public'],
      ['100.63.255.255', 'public'],
      ['100.64.0.0', 'cgnat'],
      ['100.64.0.1', 'cgnat'],
      ['100.127.255.255', 'cgnat'],
      ['100.128.0.0', 'public'],
      ['126.255.255.255', 'public'],
      ['127.0.0.0', 'loopback'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.255', 'loopback'],
      ['128.0.0.0', 'public'],
      ['169.253.255.255', 'public'],
      ['169.254.0.0', 'link-local'],
      ['169.254.169.253', 'link-local'],
      ['169.254.169.254', 'metadata'],
      ['169.254.169.255', 'link-local'],
      ['169.254.255.255', 'link-local'],
      ['169.255.0.0', 'public'],
      ['172.15.255.255', 'public'],
      ['172.16.0.0', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.0', 'public'],
      ['191.255.255.255', 'public'],
      ['192.0.0.0', 'reserved'],
      ['192.0.0.255', 'reserved'],
      ['192.0.1.0', 'public'],
      ['192.0.2.0', 'reserved'],
      ['192.0.2.255', 'reserved'],
      ['192.0.3.0', 'public'],
      ['192.88.98.255', 'public'],
      ['192.88.99.1', 'reserved'],
      ['192.88.100.0', 'public'],
      ['192.167.255.255', 'public'],
      ['192.168.0.0', 'private'],
      ['192.168.1.1', 'private'],
      ['192.168.255.255', 'private'],
      ['192.169.0.0', 'public'],
      ['198.17.255.255', 'public'],
      ['198.18.0.0', 'reserved'],
      ['198.19.255.255', 'reserved'],
      ['198.20.0.0', 'public'],
      ['198.51.99.255', 'public'],
      ['198.51.100.7', 'reserved'],
      ['198.51.101.0', 'public'],
      ['203.0.112.255', 'public'],
      ['203.0.113.9', 'reserved'],
      ['203.0.114.0', 'public'],
      ['223.255.255.255', 'public'],
      ['224.0.0.0', 'multicast'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.255', 'multicast'],
      ['240.0.0.0', 'reserved'],
      ['255.255.255.254', 'reserved'],
      ['255.255.255.255', 'broadcast'],
    ]);
  });

  it('knows the cloud metadata addresses', () => {
    assertClasses([
      ['169.254.169.254', 'metadata'],
      ['100.100.100.200', 'metadata'],
      ['168.63.129.16', 'metadata'],
      ['192.0.0.192', 'metadata'],
      ['fd00:ec2::254', 'metadata'],
      ['::ffff:169.254.169.254', 'metadata'],
      ['64:ff9b::a9fe:a9fe', 'metadata'],
      ['100.100.100.199', 'cgnat'],
      ['168.63.129.17', 'public'],
      ['fd00:ec2::253', 'private'],
    ]);
  });

  it('classifies the special IPv6 ranges and treats only global unicast as public', () => {
    assertClasses([
      ['::', 'unspecified'],
      ['0:0:0:0:0:0:0:0', 'unspecified'],
      ['::1', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['0000:0000:0000:0000:0000:0000:0000:0001', 'loopback'],
      ['::1:0:0:0', 'reserved'],
      ['64:ff9b:1::1', 'reserved'],
      ['100::1', 'reserved'],
      ['100::1:0:0:0:1', 'reserved'],
      ['2001:2::1', 'reserved'],
      ['2001:10::1', 'reserved'],
      ['2001:1ff:ffff::1', 'reserved'],
      ['2001:200::1', 'public'],
      ['2001:db7:ffff::1', 'public'],
      ['2001:db8::1', 'reserved'],
      ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
      ['2001:db9::1', 'public'],
      ['2001:4860:4860::8888', 'public'],
      ['2606:4700:4700::1111', 'public'],
      ['2a00:1450:4001:80b::200e', 'public'],
      ['3ffe:ffff::1', 'public'],
      ['3fff::1', 'reserved'],
      ['3fff:fff:ffff::1', 'reserved'],
      ['3fff:1000::1', 'public'],
      ['4000::1', 'reserved'],
      ['5f00::1', 'reserved'],
      ['1fff:ffff::1', 'reserved'],
      ['fbff:ffff::1', 'reserved'],
      ['fc00::', 'private'],
      ['fc00::1', 'private'],
      ['fd12:3456:789a::1', 'private'],
      ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
      ['fe00::1', 'reserved'],
      ['fe7f:ffff::1', 'reserved'],
      ['fe80::', 'link-local'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['febf:ffff::1', 'link-local'],
      ['fec0::1', 'private'],
      ['feff:ffff::1', 'private'],
      ['ff00::', 'multicast'],
      ['ff02::1', 'multicast'],
      ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
    ]);
  });

  it('judges IPv6 forms that carry an IPv4 address by that address', () => {
    assertClasses([
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
      ['::ffff:10.0.0.5', 'private'],
      ['::ffff:0.0.0.0', 'unspecified'],
      ['::ffff:8.8.8.8', 'public'],
      ['::ffff:0:127.0.0.1', 'loopback'],
      ['::ffff:0:8.8.8.8', 'public'],
      ['::127.0.0.1', 'loopback'],
      ['::7f00:1', 'loopback'],
      ['::0.0.0.2', 'unspecified'],
      ['::192.168.0.1', 'private'],
      ['::8.8.8.8', 'public'],
      ['64:ff9b::127.0.0.1', 'loopback'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['64:ff9b::a00:5', 'private'],
      ['64:ff9b::808:808', 'public'],
      ['2002:7f00:1::', 'loopback'],
      ['2002:7f00:1:ffff::1', 'loopback'],
      ['2002:c0a8:101::1', 'private'],
      ['2002:a9fe:a9fe::1', 'metadata'],
      ['2002:808:808::1', 'public'],
      // Teredo: server 65.54.227.120, client 127.0.0.1 (bits inverted) and the other way round.
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
      ['2001:0:7f00:1:8000:63bf:f7f7:f7f7', 'loopback'],
      ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'],
    ]);
  });

  it('judges every IPv4 address the same in each IPv6 form that carries it', () => {
    fc.assert(
      fc.property(ipv4, (octets) => {
        const [a, b, c, d] = octets;
        const expected = classifyAddress(dotted(octets));
        const high = hex16(a, b);
        const low = hex16(c, d);
        assert.equal(classifyAddress(`::ffff:${dotted(octets)}`), expected);
        assert.equal(classifyAddress(`::ffff:${high}:${low}`), expected);
        assert.equal(classifyAddress(`0:0:0:0:0:ffff:${high}:${low}`), expected);
        assert.equal(classifyAddress(`64:ff9b::${dotted(octets)}`), expected);
        assert.equal(classifyAddress(`2002:${high}:${low}:1::1`), expected);
        if (a !== 0 || b !== 0) assert.equal(classifyAddress(`::${high}:${low}`), expected);
      }),
    );
  });

  it('reads every IPv6 spelling of an address as the same address', () => {
    const groups = fc.array(fc.oneof(fc.constant(0), fc.nat(0xffff)), {
      minLength: 8,
      maxLength: 8,
    });
    fc.assert(
      fc.property(groups, (values) => {
        const full = values.map((value) => value.toString(16)).join(':');
        const padded = values.map((value) => value.toString(16).padStart(4, '0')).join(':');
        const compressed = new URL(`http://[${full}]/`).hostname.slice(1, -1);
        const expected = values.reduce((sum, value) => (sum << 16n) | BigInt(value), 0n);
        for (const spelling of [full, padded, compressed, compressed.toUpperCase()]) {
          assert.deepEqual(parseIpAddress(spelling), { version: 6, value: expected }, spelling);
        }
        assert.equal(classifyAddress(compressed), classifyAddress(full));
      }),
    );
  });

  it('refuses nothing when private networks are allowed, and names the class otherwise', () => {
    assert.equal(refusedAddressClass('127.0.0.1', { allowPrivateNetworks: true }), undefined);
    assert.equal(refusedAddressClass('127.0.0.1', { allowPrivateNetworks: false }), 'loopback');
    assert.equal(refusedAddressClass('8.8.8.8', { allowPrivateNetworks: false }), undefined);
    assert.ok(isPublicAddress('1.1.1.1'));
    assert.ok(!isPublicAddress('::1'));
  });

  it('throws a TypeError for text that is not an IP address', () => {
    for (const text of ['', 'localhost', '127.1', '2130706433', '0x7f.0.0.1', '[::1]', '1::2::3']) {
      assert.throws(() => classifyAddress(text), TypeError, text);
    }
  });
});
