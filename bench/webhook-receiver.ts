/**
 * The webhook stage's receiver, a process of its own (node:http on loopback): verifies the
 * Standard Webhooks signature of every delivery with the endpoint's secret, answers 204 (400 when
 * the signature does not verify) and notes when each delivery was accepted and the instant of the
 * change it carries (the envelope's `time`, the change's commit).
 *
 * stdin, one JSON line each: `{"endpoint":"/e/0","secret":"whsec_…"}` registers an endpoint's
 * secret (answered `registered`); `{"report":true}` prints the report (bench/webhook-protocol.ts)
 * as one JSON line. Prints `ready <port>` once listening on PORT (0 for any).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { signatureMatches } from '../src/webhooks/signature.js';
import type { ReceiverCommand, ReceiverReport } from './webhook-protocol.js';

const secrets = new Map<string, string>();
const seen = new Set<string>();
const report: ReceiverReport = {
  accepted: 0,
  unverified: 0,
  duplicates: 0,
  acceptedAt: [],
  changedAt: [],
};

function receive(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const id = header(request, 'webhook-id');
    const timestamp = Number(header(request, 'webhook-timestamp'));
    const secret = secrets.get(request.url ?? '');
    const verified =
      request.method === 'POST' &&
      secret !== undefined &&
      id !== '' &&
      Number.isInteger(timestamp) &&
      signatureMatches(header(request, 'webhook-signature'), id, timestamp, body, secret);
    if (!verified) {
      report.unverified++;
      response.writeHead(400).end();
      return;
    }
    const changedAt = Date.parse((JSON.parse(body) as { time: string }).time);
    response.writeHead(204).end();
    // Accepted when the answer is handed to the socket: what the worker waits for.
    const key = `${request.url} ${id}`;
    if (seen.has(key)) report.duplicates++;
    seen.add(key);
    report.accepted++;
    report.acceptedAt.push(Date.now());
    report.changedAt.push(changedAt);
  });
}

function header(request: IncomingMessage, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

async function main(): Promise<void> {
  const server = createServer({ keepAliveTimeout: 60_000 }, receive);
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port was assigned');
  process.stdout.write(`ready ${address.port}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const command = JSON.parse(line) as ReceiverCommand;
    if ('endpoint' in command) {
      secrets.set(command.endpoint, command.secret);
      process.stdout.write('registered\n');
    } else {
      process.stdout.write(`${JSON.stringify(report)}\n`);
    }
  }
  server.closeAllConnections();
  server.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
