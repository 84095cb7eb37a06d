import { isIPv4, isIPv6 } from 'node:net';

/**
 * An IP address as a number, to match against prefixes: IPv4 in 32 bits, IPv6 in 128 bits.
 * Only the canonical text forms `node:net` accepts are read here (dotted-quad decimal IPv4, any
 * valid IPv6 spelling): the URL parser has already turned decimal, octal, hex and short IPv4
 * spellings into dotted quads, and resolvers answer in that form.
 */
export type IpAddress = { version: 4; value: number } | { version: 6; value: bigint };

/** The address, or undefined when the text is not an IP address. An IPv6 zone (`%eth0`) is ignored. */
export function parseIpAddress(text: string): IpAddress | undefined {
  if (isIPv4(text)) return { version: 4, value: ipv4Value(text) };
  const withoutZone = text.split('%', 1)[0]!;
  if (isIPv6(withoutZone)) return { version: 6, value: ipv6Value(withoutZone) };
  return undefined;
}

function ipv4Value(text: string): number {
  return text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function ipv6Value(text: string): bigint {
  const [head = '', tail] = text.split('::');
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').flatMap(group));
  const headGroups = groups(head);
  const tailGroups = tail === undefined ? [] : groups(tail);
  const zeros = new Array<number>(8 - headGroups.length - tailGroups.length).fill(0);
  return [...headGroups, ...zeros, ...tailGroups].reduce(
    (value, group) => (value << 16n) | BigInt(group),
    0n,
  );
}

/** One 16-bit group, or the two a trailing dotted-quad IPv4 part stands for. */
function group(text: string): number[] {
  if (!text.includes('.')) return [Number.parseInt(text, 16)];
  const value = ipv4Value(text);
  return [Math.floor(value / 0x10000), value % 0x10000];
}

/** A CIDR prefix such as `10.0.0.0/8` or `fc00::/7`, ready to match addresses of its version. */
export interface IpPrefix {
  version: 4 | 6;
  matches(address: IpAddress): boolean;
}

export function ipPrefix(cidr: string): IpPrefix {
  const [text = '', lengthText = ''] = cidr.split('/');
  const base = parseIpAddress(text);
  const length = Number(lengthText);
  if (base === undefined || !Number.isInteger(length)) throw new TypeError(`not a prefix: ${cidr}`);
  if (base.version === 4) {
    const hostBits = 32 - length;
    const network = Math.floor(base.value / 2 ** hostBits);
    return {
      version: 4,
      matches: (address) =>
        address.version === 4 && Math.floor(address.value / 2 ** hostBits) === network,
    };
  }
  const hostBits = BigInt(128 - length);
  const network = base.value >> hostBits;
  return {
    version: 6,
    matches: (address) => address.version === 6 && address.value >> hostBits === network,
  };
}
