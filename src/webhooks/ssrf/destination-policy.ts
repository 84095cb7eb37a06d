import { ipPrefix, parseIpAddress, type IpAddress, type IpPrefix } from './ip-address.js';

/** Why a webhook may not be delivered to an address (DESIGN §8, SSRF). */
export type RefusedAddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'metadata'
  | 'reserved'
  | 'broadcast';

export type AddressClass = 'public' | RefusedAddressClass;

/** Whether webhooks may go to non-public destinations (`WEBHOOKS_ALLOW_PRIVATE_NETWORKS`). */
export interface DestinationPolicy {
  allowPrivateNetworks: boolean;
}

/** Checked in order, so that single addresses come before the ranges that contain them. */
const IPV4_RANGES = table([
  ['255.255.255.255/32', 'broadcast'],
  // Cloud instance metadata: AWS, GCP, Azure, OpenStack, DigitalOcean and others; Alibaba;
  // Azure's platform endpoint (WireServer); Oracle Cloud's older one.
  ['169.254.169.254/32', 'metadata'],
  ['100.100.100.200/32', 'metadata'],
  ['168.63.129.16/32', 'metadata'],
  ['192.0.0.192/32', 'metadata'],
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'reserved'], // documentation (TEST-NET-1)
  ['192.88.99.0/24', 'reserved'], // former 6to4 relay anycast
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'], // benchmarking
  ['198.51.100.0/24', 'reserved'], // documentation (TEST-NET-2)
  ['203.0.113.0/24', 'reserved'], // documentation (TEST-NET-3)
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

/** IPv6 prefixes that carry an IPv4 address: the packet ends up at that address. */
const IPV4_CARRIERS: readonly { prefix: IpPrefix; embedded: EmbeddedIpv4 }[] = [
  { prefix: ipPrefix('::ffff:0:0/96'), embedded: lowest32Bits }, // IPv4-mapped
  { prefix: ipPrefix('::ffff:0:0:0/96'), embedded: lowest32Bits }, // IPv4-translated (SIIT)
  { prefix: ipPrefix('64:ff9b::/96'), embedded: lowest32Bits }, // NAT64 well-known prefix
  { prefix: ipPrefix('2002::/16'), embedded: sixToFour },
  { prefix: ipPrefix('2001::/32'), embedded: teredo },
];

/** Before the IPv4-compatible range `::/96`, which contains them. */
const IPV6_UNSPECIFIED_AND_LOOPBACK = table([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
]);

const IPV6_RANGES = table([
  ['fd00:ec2::254/128', 'metadata'], // AWS instance metadata over IPv6
  ['64:ff9b:1::/48', 'reserved'], // NAT64 local use: translates into a private IPv4 network
  ['100::/64', 'reserved'], // discard-only
  ['2001::/23', 'reserved'], // IETF protocol assignments (Teredo is unwrapped before)
  ['2001:db8::/32', 'reserved'], // documentation
  ['3fff::/20', 'reserved'], // documentation
  ['5f00::/16', 'reserved'], // segment routing (SRv6) identifiers
  ['fc00::/7', 'private'], // unique local
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'private'], // former site-local
  ['ff00::/8', 'multicast'],
]);

/** Global unicast: every other IPv6 address is unassigned or special. */
const IPV6_GLOBAL_UNICAST = ipPrefix('2000::/3');
/** IPv4-compatible (deprecated): `::a.b.c.d`, after `::` and `::1` were classified. */
const IPV4_COMPATIBLE = ipPrefix('::/96');

/**
 * Where an IP address lies, for the SSRF rules: `'public'` or the reason a webhook must not go
 * there. IPv6 forms that carry an IPv4 address (mapped, translated, IPv4-compatible, NAT64,
 * 6to4, Teredo) are judged by the IPv4 address they carry. Throws a TypeError for text that is
 * not an IP address.
 */
export function classifyAddress(ip: string): AddressClass {
  const address = parseIpAddress(ip);
  if (address === undefined) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
  return classify(address);
}

export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === 'public';
}

/** The refusal a destination gets under the policy, or undefined when it may be dialled. */
export function refusedAddressClass(
  ip: string,
  policy: DestinationPolicy,
): RefusedAddressClass | undefined {
  if (policy.allowPrivateNetworks) return undefined;
  const addressClass = classifyAddress(ip);
  return addressClass === 'public' ? undefined : addressClass;
}

/** "a loopback address", for error messages. */
export function describeAddressClass(addressClass: RefusedAddressClass): string {
  switch (addressClass) {
    case 'loopback':
      return 'a loopback address';
    case 'private':
      return 'a private network address';
    case 'link-local':
      return 'a link-local address';
    case 'cgnat':
      return 'a carrier-grade NAT (shared) address';
    case 'multicast':
      return 'a multicast address';
    case 'unspecified':
      return 'the unspecified address';
    case 'metadata':
      return 'a cloud metadata service';
    case 'reserved':
      return 'a reserved address';
    case 'broadcast':
      return 'the broadcast address';
  }
}

function classify(address: IpAddress): AddressClass {
  if (address.version === 4) return matchRange(IPV4_RANGES, address) ?? 'public';
  const exact = matchRange(IPV6_UNSPECIFIED_AND_LOOPBACK, address);
  if (exact !== undefined) return exact;
  if (IPV4_COMPATIBLE.matches(address)) return classify(ipv4(address.value & 0xffffffffn));
  for (const carrier of IPV4_CARRIERS) {
    if (!carrier.prefix.matches(address)) continue;
    const carried = carrier.embedded(address.value).map(classify);
    return carried.find((addressClass) => addressClass !== 'public') ?? 'public';
  }
  const special = matchRange(IPV6_RANGES, address);
  if (special !== undefined) return special;
  return IPV6_GLOBAL_UNICAST.matches(address) ? 'public' : 'reserved';
}

type Range = { prefix: IpPrefix; addressClass: RefusedAddressClass };

function table(entries: readonly [string, RefusedAddressClass][]): readonly Range[] {
  return entries.map(([cidr, addressClass]) => ({ prefix: ipPrefix(cidr), addressClass }));
}

function matchRange(ranges: readonly Range[], address: IpAddress): RefusedAddressClass | undefined {
  return ranges.find((range) => range.prefix.matches(address))?.addressClass;
}

type EmbeddedIpv4 = (value: bigint) => IpAddress[];

function ipv4(value: bigint): IpAddress {
  return { version: 4, value: Number(value) };
}

function lowest32Bits(value: bigint): IpAddress[] {
  return [ipv4(value & 0xffffffffn)];
}

/** 2002:AABB:CCDD::/48 routes to AA.BB.CC.DD. */
function sixToFour(value: bigint): IpAddress[] {
  return [ipv4((value >> 80n) & 0xffffffffn)];
}

/** 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC: the server, and the client with its bits inverted. */
function teredo(value: bigint): IpAddress[] {
  return [ipv4((value >> 64n) & 0xffffffffn), ipv4(~value & 0xffffffffn)];
}
