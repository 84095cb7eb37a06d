import type { RefusedAddressClass } from './destination-policy.js';

/** Names of cloud metadata services, which resolve to them only from inside the cloud. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

/** Suffixes that name hosts of a local network, never of the internet. */
const LOCAL_NETWORK_SUFFIXES = ['.local', '.internal', '.localdomain', '.home.arpa', '.lan'];

/**
 * The refusal a host name gets on its face, before any resolution: loopback and local-network
 * names and the metadata services' names. Undefined when nothing is wrong with the name itself
 * (its addresses still have to be checked). Expects the URL parser's lower-case, punycoded
 * hostname; a trailing dot is ignored.
 */
export function refusedHostName(hostname: string): RefusedAddressClass | undefined {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (METADATA_NAMES.has(name)) return 'metadata';
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  // A single label is completed by the resolver's search domains: some intranet host.
  if (!name.includes('.')) return 'private';
  if (LOCAL_NETWORK_SUFFIXES.some((suffix) => name.endsWith(suffix))) return 'private';
  return undefined;
}
