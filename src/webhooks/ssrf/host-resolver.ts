import { promises as dns } from 'node:dns';

export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/**
 * Every address a host name resolves to, in the resolver's order. Rejects with the resolver's
 * error (`code` ENOTFOUND or ENODATA when the name has no address). Injectable so that tests
 * can make a name resolve anywhere.
 */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The operating system's resolver (`getaddrinfo`, as `net.connect` uses by default). */
export const systemHostResolver: HostResolver = (hostname) =>
  dns.lookup(hostname, { all: true, verbatim: true });

/** How long a resolution may take before it counts as a temporary failure. */
export const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;

/** Codes of a definite "this name has no address" answer, as opposed to a failure to ask. */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA']);

export function isNoSuchName(error: unknown): boolean {
  return NO_SUCH_NAME.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** The resolver's answer, or a rejection with code ETIMEOUT once `timeoutMs` has passed. */
export function resolveWithin(
  resolve: HostResolver,
  hostname: string,
  timeoutMs: number,
): Promise<readonly ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error: NodeJS.ErrnoException = new Error(`resolving ${hostname} timed out`);
      error.code = 'ETIMEOUT';
      reject(error);
    }, timeoutMs);
    timer.unref();
  });
  return Promise.race([resolve(hostname), timeout]).finally(() => clearTimeout(timer));
}
