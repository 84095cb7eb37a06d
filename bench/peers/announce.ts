import { once } from 'node:events';
import type { Server } from 'node:http';

/**
 * Listens on an ephemeral port of the loopback address; SIGTERM closes the server, runs
 * `beforeExit` (a peer's own database goes) and exits.
 */
export async function listenOnLoopback(
  server: Server,
  beforeExit: () => Promise<void> = async () => {},
): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port was assigned');
  const url = `http://127.0.0.1:${address.port}`;
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => {
      beforeExit().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  });
  return url;
}

/** Tells the harness where the peer answers: one line on stdout, `ready <url>`. */
export function announce(url: string): void {
  process.stdout.write(`ready ${url}\n`);
}
