import type { Logger } from 'pino';

/**
 * A database engine's own publish/subscribe between the processes that share one database
 * (PostgreSQL's LISTEN/NOTIFY), on one named channel. Delivery is at most once: a payload sent
 * while a process's listening connection is down does not reach it.
 */
export interface NotificationChannel {
  /** The longest payload one notification carries, in UTF-8 bytes. */
  readonly maxPayloadBytes: number;
  /**
   * Sends `payload` to every listener of the channel, this process's included. Payloads go out
   * one after another in call order. Rejects if the database does not take it within seconds.
   */
  notify(payload: string): Promise<void>;
  /** Stops listening and closes the connections; idempotent; never hangs. */
  close(): Promise<void>;
}

export interface NotificationChannelOptions {
  /** What the channel is for, lower case (`realtime`); the deployment's schema is added to it. */
  name: string;
  logger: Logger;
  /** Called with each payload sent on the channel by any process. */
  onPayload(payload: string): void;
}
