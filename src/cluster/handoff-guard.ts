import type { Worker } from 'node:cluster';

interface Closable {
  close(): void;
}

/**
 * Closes the connections the primary handed to a worker that died before it took them.
 *
 * Under round-robin scheduling (node:cluster's default on Linux) the primary accepts each
 * connection and sends it to a worker, keeping its own copy until the worker answers that it
 * took it. A worker killed in between never answers: the primary would keep that connection
 * open for ever, and its client would wait for ever for a response. This follows each hand-off
 * to `worker` until the answer, and when the worker exits closes the connections still unanswered,
 * so that their clients see the connection close and can try again.
 *
 * It reads node:cluster's internal messages (a `newconn` hand-off out, an `ack` back), which Node
 * does not document: test/reliability/worker-death-handoff.test.ts fails if they change.
 */
export function closeUntakenConnectionsOnExit(worker: Worker): void {
  const child = worker.process;
  const untaken = new Map<number, Closable>();
  const send = child.send.bind(child) as (...args: unknown[]) => boolean;
  child.send = ((...args: unknown[]) => {
    const [message, handle] = args;
    if (isHandoff(message) && isClosable(handle)) untaken.set(message.seq, handle);
    return send(...args);
  }) as typeof child.send;
  child.on('internalMessage', (message: unknown) => {
    if (isAnswer(message)) untaken.delete(message.ack);
  });
  worker.once('exit', () => {
    // Closing a handle Node closed already does nothing.
    for (const handle of untaken.values()) handle.close();
    untaken.clear();
  });
}

function isHandoff(message: unknown): message is { seq: number } {
  const fields = message as { cmd?: unknown; act?: unknown; seq?: unknown } | null;
  return (
    fields?.cmd === 'NODE_CLUSTER' && fields.act === 'newconn' && typeof fields.seq === 'number'
  );
}

function isAnswer(message: unknown): message is { ack: number } {
  const fields = message as { cmd?: unknown; ack?: unknown } | null;
  return fields?.cmd === 'NODE_CLUSTER' && typeof fields.ack === 'number';
}

function isClosable(handle: unknown): handle is Closable {
  return typeof (handle as Closable | null)?.close === 'function';
}
