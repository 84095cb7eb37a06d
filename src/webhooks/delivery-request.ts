import { request as httpRequest, type Agent, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** How much of an answer's body is read and kept with the attempt; the rest is never read. */
export const EXCERPT_BYTES = 1024;

/** The `error` column's width. */
const ERROR_CHARS = 300;

export interface DeliveryRequest {
  url: URL;
  body: string;
  headers: Record<string, string>;
  /** The connection pool (and dialler) of the endpoint's origin. */
  agent: Agent;
  /** For the whole exchange: connecting, sending, the status line and the excerpt. */
  timeoutMs: number;
  /** Aborts the request (shutdown). */
  signal?: AbortSignal;
}

export interface DeliveryResponse {
  /** Null when no answer came; `error` then says why. */
  statusCode: number | null;
  retryAfter?: string;
  latencyMs: number;
  /** The first KiB of the answer's body, as text. */
  excerpt: string | null;
  error: string | null;
}

/**
 * POSTs one delivery and reads at most the first KiB of the answer: once more comes, the
 * connection is dropped rather than read to its end. Redirects are answers like any other (a
 * 3xx is never followed). Never rejects: a failure is a response without a status.
 */
export function postDelivery(request: DeliveryRequest): Promise<DeliveryResponse> {
  const started = performance.now();
  const send = request.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    let response: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let bytes = 0;

    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve({
        statusCode: response?.statusCode ?? null,
        retryAfter: headerValue(response?.headers['retry-after']),
        latencyMs: Math.round(performance.now() - started),
        excerpt: response ? excerptOf(Buffer.concat(chunks)) : null,
        error: error === null ? null : error.slice(0, ERROR_CHARS),
      });
    };

    const req = send(request.url, {
      method: 'POST',
      agent: request.agent,
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
    });
    const fail = (message: string) => {
      // With a status already, the answer stands; the error says what went wrong after it.
      finish(message);
      req.destroy();
    };
    const timer = setTimeout(
      () => fail(`no complete answer within ${request.timeoutMs} ms`),
      request.timeoutMs,
    );
    const onAbort = () => fail('abandoned: the service is shutting down');
    if (request.signal?.aborted) {
      onAbort();
      return;
    }
    request.signal?.addEventListener('abort', onAbort);

    req.on('error', (error: NodeJS.ErrnoException) => finish(describe(error)));
    req.on('response', (res) => {
      response = res;
      res.on('data', (chunk: Buffer) => {
        const room = EXCERPT_BYTES - bytes;
        chunks.push(chunk.subarray(0, room));
        bytes += Math.min(room, chunk.length);
        if (chunk.length > room) {
          // More than the excerpt: the rest is not our business, and may be endless.
          finish(null);
          res.destroy();
        }
      });
      res.on('end', () => finish(null));
      res.on('error', (error: NodeJS.ErrnoException) => finish(describe(error)));
      res.on('aborted', () => finish('the connection closed during the answer'));
    });
    req.end(request.body);
  });
}

function describe(error: NodeJS.ErrnoException): string {
  return error.code && !error.message.includes(error.code)
    ? `${error.code}: ${error.message}`
    : error.message || String(error.code ?? 'request failed');
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Text to store: NUL (which PostgreSQL's text refuses) dropped, a cut character replaced. */
function excerptOf(bytes: Buffer): string {
  return bytes.toString('utf8').replaceAll('\u0000', '');
}
