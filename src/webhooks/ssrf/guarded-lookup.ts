import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import {
  describeAddressClass,
  refusedAddressClass,
  type DestinationPolicy,
  type RefusedAddressClass,
} from './destination-policy.js';
import {
  DEFAULT_RESOLVE_TIMEOUT_MS,
  resolveWithin,
  systemHostResolver,
  type HostResolver,
} from './host-resolver.js';

export const WEBHOOK_DESTINATION_REFUSED = 'EWEBHOOKDESTINATION';

/**
 * A connection a webhook delivery was about to open and that the SSRF rules refuse. It fails
 * the request like a connection error, with `code` EWEBHOOKDESTINATION. The message names the
 * host and the kind of address but not the address, which may be an internal one.
 */
export class WebhookDestinationRefused extends Error {
  readonly code = WEBHOOK_DESTINATION_REFUSED;

  constructor(
    readonly hostname: string,
    /** The address that would have been dialled (for logs), when there was one. */
    readonly address: string | undefined,
    readonly addressClass: RefusedAddressClass | 'unix-socket' | 'not-an-address',
  ) {
    super(`Webhook destination refused: ${hostname} ${problem(hostname, address, addressClass)}`);
    this.name = 'WebhookDestinationRefused';
  }
}

function problem(
  hostname: string,
  address: string | undefined,
  addressClass: WebhookDestinationRefused['addressClass'],
): string {
  if (addressClass === 'unix-socket') return 'is a local socket';
  if (addressClass === 'not-an-address') return 'resolved to something that is not an IP address';
  const verb = address === hostname ? 'is' : 'resolves to';
  return `${verb} ${describeAddressClass(addressClass)}`;
}

export interface DestinationGuardOptions extends DestinationPolicy {
  /** Defaults to the operating system's resolver. */
  resolve?: HostResolver;
  /** Defaults to DEFAULT_RESOLVE_TIMEOUT_MS. */
  resolveTimeoutMs?: number;
}

/**
 * The refusal the connection to `address` (what is actually dialled) for `hostname` gets, or
 * undefined when it may go ahead.
 */
export function destinationRefusal(
  hostname: string,
  address: string,
  policy: DestinationPolicy,
): WebhookDestinationRefused | undefined {
  if (isIP(address.split('%', 1)[0]!) === 0) {
    return new WebhookDestinationRefused(hostname, address, 'not-an-address');
  }
  const addressClass = refusedAddressClass(address, policy);
  return addressClass && new WebhookDestinationRefused(hostname, address, addressClass);
}

/**
 * A `lookup` for `net.connect`, `tls.connect` and `http.Agent` that resolves with the guard's
 * resolver and fails the connection with WebhookDestinationRefused when any address of the
 * name is not public (unless the policy allows private networks). The addresses it hands back
 * are the ones dialled, so a name that resolved to a public address at registration and
 * resolves to 127.0.0.1 now is refused (DNS rebinding). Node does not call `lookup` for IP
 * literal hosts: use createGuardedAgent, which checks those too.
 */
export function createGuardedLookup(options: DestinationGuardOptions): LookupFunction {
  const resolve = options.resolve ?? systemHostResolver;
  const timeoutMs = options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS;
  return (hostname, lookupOptions, callback) => {
    // Called back outside the promise chain, so that a throwing callback is not swallowed.
    const answer = (error: NodeJS.ErrnoException | null, addresses: readonly LookupAddress[]) =>
      process.nextTick(() => {
        if (error) callback(error, '', undefined);
        else if (lookupOptions.all) callback(null, [...addresses]);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    const literalFamily = isIP(hostname);
    const resolved: Promise<readonly LookupAddress[]> =
      literalFamily === 0
        ? resolveWithin(resolve, hostname, timeoutMs)
        : Promise.resolve([{ address: hostname, family: literalFamily }]);
    resolved.then(
      (all) => {
        const refusal = all
          .map(({ address }) => destinationRefusal(hostname, address, options))
          .find((found) => found !== undefined);
        if (refusal) return answer(refusal, []);
        const addresses = all.filter(({ family }) => wantsFamily(lookupOptions, family));
        if (addresses.length === 0) return answer(noAddress(hostname), []);
        answer(null, addresses);
      },
      (error: NodeJS.ErrnoException) => answer(error, []),
    );
  };
}

function wantsFamily(options: LookupOptions, family: number): boolean {
  const wanted = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
  return !wanted || wanted === family;
}

function noAddress(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  error.syscall = 'getaddrinfo';
  return Object.assign(error, { hostname });
}
