import type { ServerResponse } from 'node:http';

/**
 * Answers `value` as JSON with `status`: the Content-Type and Content-Length Express's `res.json`
 * sends, without its ETag (these answers are never cached) or any other per-call work.
 */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  sendJsonText(res, status, JSON.stringify(value));
}

/** sendJson for a document already serialized. */
export function sendJsonText(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
