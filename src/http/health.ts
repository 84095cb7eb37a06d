import { Router } from 'express';

const READINESS_TIMEOUT_MS = 2000;

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: a write transaction
 * begins and commits, and the process is not shutting down, so a load balancer or supervisor
 * stops sending it work when it could only answer reads).
 */
export function healthRouter(
  /** Begins, writes and commits a transaction; rejects when the database takes no writes. */
  checkWritable: () => Promise<void>,
  isShuttingDown: () => boolean,
): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    if (isShuttingDown()) {
      res
        .status(503)
        .json({ status: 'unavailable', shutting_down: true, checks: { database: 'ok' } });
      return;
    }
    try {
      await withTimeout(checkWritable(), READINESS_TIMEOUT_MS);
      res.json({ status: 'ready', checks: { database: 'ok' } });
    } catch (error) {
      req.log.warn({ err: error }, 'readiness check failed');
      res.status(503).json({ status: 'unavailable', checks: { database: 'error' } });
    }
  });
  return router;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
