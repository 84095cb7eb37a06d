import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Router, type Request, type Response } from 'express';
import type { MetricsSource } from './metrics-source.js';

const BEARER = /^Bearer (.+)$/i;

/**
 * `GET /metrics` on the service port, for a scraper that presents METRICS_TOKEN as a bearer
 * token. Both sides are hashed before the constant-time comparison, which needs equal lengths.
 */
export function metricsRouter(token: string, source: MetricsSource): Router {
  const expected = digest(token);
  const router = Router();
  router.get('/metrics', async (req: Request, res: Response) => {
    const given = BEARER.exec(req.get('authorization') ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      res.status(401).type('text/plain').send('A valid bearer token is required for /metrics\n');
      return;
    }
    await sendMetrics(source, res);
  });
  return router;
}

/** Writes the metrics, or a 503 when they cannot be gathered (a worker did not answer). */
export async function sendMetrics(source: MetricsSource, res: ServerResponse): Promise<void> {
  let text: string;
  try {
    text = await source.read();
  } catch {
    res.statusCode = 503;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('Metrics are unavailable right now\n');
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', source.contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.end(text);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
