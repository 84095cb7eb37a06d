import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { ByteBudget } from '../byte-budget.js';
import { isBroadcast, type BroadcastMessage } from './messages.js';

/**
 * Tells every other cluster worker something (a realtime message, say): the primary relays it
 * to each live worker but this one. Resolves once the message has left this process (so that a
 * caller can bound what it has in flight); it never rejects: a channel that is closing simply
 * delivers nothing. Outside a cluster worker there is nobody to tell and nothing is sent.
 */
export function publishToWorkers(channel: string, payload: unknown): Promise<void> {
  if (!cluster.isWorker || !process.send) return Promise.resolve();
  const message: BroadcastMessage = { type: 'hpa:broadcast', channel, payload };
  return new Promise((resolve) => {
    try {
      process.send!(message, () => resolve());
    } catch {
      resolve();
    }
  });
}

/**
 * Calls `handler` with the payload of every message another worker publishes on `channel`.
 * Returns the function that stops listening. Outside a cluster worker nothing ever arrives.
 */
export function onWorkerBroadcast(
  channel: string,
  handler: (payload: unknown) => void,
): () => void {
  if (!cluster.isWorker) return () => {};
  const listener = (message: unknown) => {
    if (isBroadcast(message) && message.channel === channel) handler(message.payload);
  };
  process.on('message', listener);
  return () => process.off('message', listener);
}

/**
 * The primary's relay, for `cluster.on('message', relay)`: a worker's broadcast goes to every
 * other live worker, unchanged. What waits in the IPC channel to one worker is bounded by
 * `maxBacklogBytes` (a worker too busy to read would otherwise grow the primary without limit);
 * past it, broadcasts to that worker are dropped, as the realtime bus allows (at most once).
 */
export function broadcastRelay(
  maxBacklogBytes: number,
  logger: Logger,
): (from: Worker, message: unknown) => void {
  const backlogs = new WeakMap<Worker, ByteBudget>();
  const backlogOf = (worker: Worker) => {
    let backlog = backlogs.get(worker);
    if (!backlog) {
      backlog = new ByteBudget(maxBacklogBytes, logger, `broadcasts to worker ${worker.id}`);
      backlogs.set(worker, backlog);
    }
    return backlog;
  };
  return (from, message) => {
    if (!isBroadcast(message)) return;
    const bytes = sizeOf(message.payload);
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (!worker || worker === from || !worker.isConnected()) continue;
      const backlog = backlogOf(worker);
      if (!backlog.take(bytes)) continue;
      try {
        worker.send(message as BroadcastMessage, () => backlog.give(bytes));
      } catch {
        backlog.give(bytes);
      }
    }
  };
}

/** About what a payload takes in the channel (its JSON). */
function sizeOf(payload: unknown): number {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return Buffer.byteLength(text ?? '') + 64;
}
