import type { Duplex } from 'node:stream';

const REASONS: Record<number, string> = {
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Answers a WebSocket upgrade request with a plain HTTP response and closes the socket. */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  if (socket.destroyed) return;
  const bytes = Buffer.from(body, 'utf8');
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const head =
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n` +
    extra +
    `Content-Type: ${type}; charset=utf-8\r\n` +
    `Content-Length: ${bytes.length}\r\n` +
    'Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n';
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), bytes]));
}
