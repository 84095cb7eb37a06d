import { isIP } from 'node:net';
import { TemporarilyUnavailable, ValidationError } from '../../errors.js';
import {
  describeAddressClass,
  refusedAddressClass,
  type DestinationPolicy,
  type RefusedAddressClass,
} from './destination-policy.js';
import { refusedHostName } from './host-names.js';
import {
  DEFAULT_RESOLVE_TIMEOUT_MS,
  isNoSuchName,
  resolveWithin,
  systemHostResolver,
  type HostResolver,
} from './host-resolver.js';

export const ENDPOINT_URL_MAX_LENGTH = 2048;

export interface EndpointUrlPolicy extends DestinationPolicy {
  requireHttps: boolean;
}

export interface EndpointUrlCheckOptions {
  /** Defaults to the operating system's resolver. */
  resolve?: HostResolver;
  /** Defaults to DEFAULT_RESOLVE_TIMEOUT_MS. */
  resolveTimeoutMs?: number;
}

export type EndpointUrlProblem =
  | 'malformed'
  | 'too-long'
  | 'scheme'
  | 'https-required'
  | 'userinfo'
  | 'fragment'
  | 'port'
  | 'refused-host'
  | 'refused-address'
  | 'unresolvable';

/**
 * An endpoint URL a webhook may not be registered with. `reason` is a sentence for the caller
 * (a 400 answer, on the field `url`); it never repeats the URL, which may hold credentials.
 */
export class EndpointUrlRefused extends ValidationError {
  constructor(
    readonly problem: EndpointUrlProblem,
    readonly reason: string,
    /** Where the host lies, for 'refused-host' (a name) and 'refused-address' (an IP address). */
    readonly addressClass?: RefusedAddressClass,
  ) {
    super(reason, 'url');
  }
}

/**
 * The endpoint URL, parsed and normalised, when webhooks may be registered with it (DESIGN §8,
 * SSRF); an EndpointUrlRefused otherwise. Unless the policy allows private networks, the host
 * must be a public IP address (in whatever spelling: the WHATWG parser turns `2130706433`,
 * `0177.0.0.1`, `0x7f.1` and `127.1` into `127.0.0.1`), or a name that is not a local one and
 * whose every address is public. A resolver that fails for a reason other than "no such name"
 * gives TemporarilyUnavailable. The delivery checks again at connect time (createGuardedAgent):
 * a name may resolve elsewhere later.
 */
export async function checkEndpointUrl(
  raw: string,
  policy: EndpointUrlPolicy,
  options: EndpointUrlCheckOptions = {},
): Promise<URL> {
  const url = parseEndpointUrl(raw, policy);
  if (policy.allowPrivateNetworks) return url;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0) {
    refuseAddress(host, policy, 'is');
    return url;
  }
  const nameClass = refusedHostName(host);
  if (nameClass !== undefined) {
    throw new EndpointUrlRefused(
      'refused-host',
      `The URL's host ${HOST_NAME_PROBLEMS[nameClass] ?? HOST_NAME_PROBLEMS.private}; webhooks go only to public internet hosts`,
      nameClass,
    );
  }
  for (const { address } of await resolveHost(host, options)) {
    refuseAddress(address, policy, 'resolves to');
  }
  return url;
}

const HOST_NAME_PROBLEMS: Partial<Record<RefusedAddressClass, string>> & { private: string } = {
  metadata: 'is the name of a cloud metadata service',
  loopback: 'is a name of the local machine',
  private: 'is a local network name',
};

function parseEndpointUrl(raw: string, policy: EndpointUrlPolicy): URL {
  if (raw.length > ENDPOINT_URL_MAX_LENGTH) {
    throw new EndpointUrlRefused(
      'too-long',
      `The URL must be at most ${ENDPOINT_URL_MAX_LENGTH} characters long`,
    );
  }
  // The URL parser would quietly drop surrounding spaces and inner tabs and line breaks.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(raw)) {
    throw new EndpointUrlRefused(
      'malformed',
      'The URL must not contain spaces or control characters',
    );
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    throw new EndpointUrlRefused('scheme', 'The URL must start with https:// or http://');
  }
  if (!/^https?:\/\/[^/\\?#]/i.test(raw) || !URL.canParse(raw)) {
    throw new EndpointUrlRefused(
      'malformed',
      'The URL must be an absolute URL such as https://example.com/webhooks',
    );
  }
  const url = new URL(raw);
  if (policy.requireHttps && url.protocol !== 'https:') {
    throw new EndpointUrlRefused('https-required', 'The URL must start with https://');
  }
  // Read from the text: `https://@host` and `https://:@host` parse to an empty user name.
  const authority = raw.slice(raw.indexOf('//') + 2).split(/[/\\?#]/, 1)[0]!;
  if (authority.includes('@')) {
    throw new EndpointUrlRefused('userinfo', 'The URL must not contain a user name or password');
  }
  if (raw.includes('#')) {
    throw new EndpointUrlRefused('fragment', 'The URL must not contain a fragment (#)');
  }
  if (url.port === '0') {
    throw new EndpointUrlRefused('port', 'The URL must not name port 0');
  }
  if (url.href.length > ENDPOINT_URL_MAX_LENGTH) {
    throw new EndpointUrlRefused(
      'too-long',
      `The URL must be at most ${ENDPOINT_URL_MAX_LENGTH} characters long once normalised`,
    );
  }
  return url;
}

function refuseAddress(address: string, policy: DestinationPolicy, verb: 'is' | 'resolves to') {
  const addressClass = refusedAddressClass(address, policy);
  if (addressClass === undefined) return;
  const subject = verb === 'is' ? "The URL's host is" : "The URL's host resolves to";
  throw new EndpointUrlRefused(
    'refused-address',
    `${subject} ${describeAddressClass(addressClass)}; webhooks go only to public internet addresses`,
    addressClass,
  );
}

async function resolveHost(host: string, options: EndpointUrlCheckOptions) {
  const resolve = options.resolve ?? systemHostResolver;
  const timeoutMs = options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS;
  let addresses;
  try {
    addresses = await resolveWithin(resolve, host, timeoutMs);
  } catch (error) {
    if (!isNoSuchName(error)) throw new TemporarilyUnavailable({ cause: error });
    addresses = [];
  }
  if (addresses.length === 0) {
    throw new EndpointUrlRefused(
      'unresolvable',
      "The URL's host name does not resolve to any address",
    );
  }
  return addresses;
}
