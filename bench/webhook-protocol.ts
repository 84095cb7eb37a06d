/** A line the harness writes to the webhook receiver (bench/webhook-receiver.ts). */
export type ReceiverCommand = { endpoint: string; secret: string } | { report: true };

/** What the receiver saw so far. */
export interface ReceiverReport {
  /** Deliveries whose signature verified (answered 204). */
  accepted: number;
  /** Requests whose signature did not verify (answered 400). */
  unverified: number;
  /** Accepted deliveries whose webhook-id the endpoint had accepted before. */
  duplicates: number;
  /** For each accepted delivery, in order: when it was answered (epoch ms)... */
  acceptedAt: number[];
  /** ...and the envelope's `time`, the instant its change committed (epoch ms). */
  changedAt: number[];
}
