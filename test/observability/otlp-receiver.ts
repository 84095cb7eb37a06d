import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as OTLP/HTTP JSON carries it, with the scope and resource it came under. */
export interface ReceivedSpan {
  name: string;
  scope: string;
  serviceName: string | undefined;
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}

interface OtlpTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ scope?: { name?: string }; spans?: Array<{ name: string }> }>;
  }>;
}

/** A minimal OTLP/HTTP collector: accepts JSON on /v1/traces and keeps every span. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces') this.keep(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private keep(body: string): void {
    const traces = JSON.parse(body) as OtlpTraces;
    for (const resourceSpans of traces.resourceSpans ?? []) {
      const serviceName = resourceSpans.resource?.attributes?.find(
        (attribute) => attribute.key === 'service.name',
      )?.value.stringValue;
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          this.spans.push({ name: span.name, scope: scopeSpans.scope?.name ?? '', serviceName });
        }
      }
    }
  }
}
