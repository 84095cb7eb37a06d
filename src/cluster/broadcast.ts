import cluster, { type Worker } from 'node:cluster';
import { isBroadcast, type BroadcastMessage } from './messages.js';

/**
 * Tells every other cluster worker something (a cache entry went stale, say): the primary
 * relays it to each live worker but this one. Outside a cluster worker there is nobody to
 * tell and nothing is sent.
 */
export function publishToWorkers(channel: string, payload: unknown): void {
  if (!cluster.isWorker || !process.send) return;
  const message: BroadcastMessage = { type: 'hpa:broadcast', channel, payload };
  process.send(message);
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
 * In the primary, on every worker message (`cluster.on('message', relayBroadcast)`): a
 * worker's broadcast goes to every other live worker, unchanged.
 */
export function relayBroadcast(from: Worker, message: unknown): void {
  if (!isBroadcast(message)) return;
  for (const worker of Object.values(cluster.workers ?? {})) {
    if (worker && worker !== from && worker.isConnected()) worker.send(message);
  }
}
