import type { PlainRequest } from './endpoint.js';

/**
 * Where a request came from, as services record it in the audit trail: the client's address as
 * Express's `req.ip` names it (TRUST_PROXY), and the request's id.
 */
export function originOf(req: PlainRequest): { ip: string; requestId: string } {
  return { ip: clientIp(req), requestId: req.id };
}

export function clientIp(req: PlainRequest): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
