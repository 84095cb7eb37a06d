import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendMetrics } from './metrics-endpoint.js';
import type { MetricsSource } from './metrics-source.js';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` without a token on a port of its own (METRICS_PORT), meant for an interface
 * only the scraper reaches (METRICS_HOST, loopback by default). Nothing else is served there.
 */
export async function startMetricsServer(
  host: string,
  port: number,
  source: MetricsSource,
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== '/metrics') {
      res.statusCode = 404;
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.statusCode = 405;
      res.setHeader('Allow', 'GET, HEAD');
      res.end();
      return;
    }
    void sendMetrics(source, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
