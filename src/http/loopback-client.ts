import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** The parts of a request this looks at: its socket and its headers. */
interface Request {
  socket: { remoteAddress?: string };
  headers: Record<string, string | string[] | undefined>;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Headers in which a proxy names the client it forwards for. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

/**
 * Whether a request comes from this machine: its connection's peer is a loopback address, and
 * no proxy header names a client anywhere else. The socket decides; forwarding headers can only
 * refuse (a proxy on this machine connects from loopback on behalf of everyone), never admit,
 * whatever TRUST_PROXY says: behind a proxy on another machine nobody is on loopback.
 */
export function isLoopbackClient(req: Request): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress ?? '')) return false;
  return forwardedAddresses(req).every(isLoopbackAddress);
}

/** 127.0.0.0/8 and ::1, also IPv4-mapped (as a dual-stack socket reports an IPv4 peer). */
export function isLoopbackAddress(address: string): boolean {
  if (isIPv4(address)) return LOOPBACK.check(address, 'ipv4');
  return isIPv6(address) && LOOPBACK.check(address, 'ipv6');
}

/** Every address the forwarding headers name, without ports or brackets; unparsable ones as ''. */
function forwardedAddresses(req: Request): string[] {
  const addresses: string[] = [];
  for (const name of FORWARDING_HEADERS) {
    const value = req.headers[name];
    if (value === undefined) continue;
    for (const entry of [value].flat().join(',').split(',')) {
      const address =
        name === 'forwarded' ? /(?:^|;)\s*for=("?)([^";]*)\1/i.exec(entry)?.[2] : entry;
      addresses.push(withoutPort((address ?? '').trim()));
    }
  }
  return addresses;
}

function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1]!;
  return /^[\d.]+:\d+$/.test(address) ? address.slice(0, address.lastIndexOf(':')) : address;
}
