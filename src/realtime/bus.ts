/** A small JSON message for every process of the deployment (live lobby updates, signalling). */
export interface RealtimeMessage {
  topic: string;
  /** JSON-serialisable; subscribers receive a decoded copy, shared between them: read-only. */
  body: unknown;
}

export type RealtimeListener = (message: RealtimeMessage) => void;

/**
 * Publish/subscribe between the processes that serve one deployment (docs/realtime.md).
 * Delivery is at most once: a message published while a connection is down may be lost.
 * Messages from one process reach each subscriber in the order they were published.
 */
export interface RealtimeBus {
  /**
   * Delivers to every subscriber of every process of this deployment, this process included,
   * once each. Resolves when handed to the transport; rejects when the transport does not take
   * it within a few seconds (the message is then lost, later ones are unaffected), with
   * RealtimeBusBusyError when this process already has its most bytes in flight (the message is
   * dropped: a slow transport never makes messages pile up in memory), when the body is not
   * JSON-serialisable, or after close().
   */
  publish(message: RealtimeMessage): Promise<void>;
  /** Returns the function that unsubscribes. Listener errors are caught and logged, never break delivery. */
  subscribe(listener: RealtimeListener): () => void;
  /** Stops listening and releases connections; idempotent; never hangs. */
  close(): Promise<void>;
}

/** Publishing faster than the transport takes messages: this one is dropped (already logged). */
export class RealtimeBusBusyError extends Error {
  override name = 'RealtimeBusBusyError';
  constructor() {
    super('the realtime bus has its most bytes in flight; the message was dropped');
  }
}

export class RealtimeBusClosedError extends Error {
  override name = 'RealtimeBusClosedError';
  constructor() {
    super('the realtime bus is closed');
  }
}
