import type { IncomingMessage } from 'node:http';

/**
 * The address a live connection comes from, as Express's `req.ip` names it for the pages
 * (`trust proxy` = TRUST_PROXY): behind a trusted proxy the first X-Forwarded-For entry, else
 * the peer of the socket. An IPv4 address is named alike however the socket reports it.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? firstForwarded(req.headers['x-forwarded-for']) : undefined;
  const address = forwarded ?? req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

function firstForwarded(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(',')[0]?.trim();
  return first ? first : undefined;
}
