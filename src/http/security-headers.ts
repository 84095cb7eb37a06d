import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { PlainHandler } from './endpoint.js';

/** helmet as the app configures it: the same headers on every answer. */
export function securityHeaders(authUrl: string): RequestHandler {
  const https = authUrl.startsWith('https:');
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https,
  });
}

type HeaderChange = readonly [name: string, value: string | undefined];

/**
 * `headers` run once, its header changes recorded, and a middleware that replays them: the same
 * headers in the same order without helmet's per-request work. helmet's answer depends on
 * nothing in the request as configured here (no nonces).
 */
export function replayed(headers: RequestHandler): PlainHandler {
  const changes: HeaderChange[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => changes.push([name, String(value)]),
    removeHeader: (name: string) => changes.push([name, undefined]),
  };
  let called = false;
  void headers({} as never, recorder as never, () => (called = true));
  if (!called) throw new Error('security headers did not answer synchronously');
  return (_req, res, next) => {
    for (const [name, value] of changes) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}
