import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { settleWithin } from '../../deadlines.js';
import type { NotificationChannel, NotificationChannelOptions } from './notification-channel.js';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7999;
/** NAMEDATALEN - 1: a longer channel name is refused by pg_notify and truncated by LISTEN. */
const LONGEST_IDENTIFIER = 63;
const CONNECT_TIMEOUT_MS = 5_000;
const NOTIFY_TIMEOUT_MS = 5_000;
const CLOSE_TIMEOUT_MS = 2_000;
const FIRST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 5_000;

/**
 * The channel of `name` for the deployment in `schema`: `hpa_<name>_<schema>`, or a hash of the
 * schema in its place when that would not be a plain identifier of at most 63 bytes. NOTIFY
 * reaches the listeners of the same database only; the schema keeps deployments that share one
 * database (the test schemas) apart.
 */
export function notificationChannelName(name: string, schema = 'public'): string {
  if (!/^[a-z][a-z0-9]{0,15}$/.test(name)) throw new Error(`not a channel name: ${name}`);
  const plain = `hpa_${name}_${schema}`;
  if (/^[a-z_][a-z0-9_]*$/.test(plain) && plain.length <= LONGEST_IDENTIFIER) return plain;
  return `hpa_${name}_${createHash('sha256').update(schema).digest('hex').slice(0, 32)}`;
}

/**
 * LISTEN on a dedicated connection, reopened with a capped backoff whenever it drops, and
 * `pg_notify` through a pool of one other connection. The sender hears its own notifications
 * through LISTEN like every other process.
 */
export class PostgresNotificationChannel implements NotificationChannel {
  readonly maxPayloadBytes = MAX_PAYLOAD_BYTES;
  private readonly channel: string;
  private readonly logger: Logger;
  private readonly onPayload: (payload: string) => void;
  private readonly notifier: pg.Pool;
  private listener: pg.Client | undefined;
  private lastNotify: Promise<unknown> = Promise.resolve();
  private failedAttempts = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly connectionString: string,
    schema: string | undefined,
    options: NotificationChannelOptions,
  ) {
    this.channel = notificationChannelName(options.name, schema);
    this.logger = options.logger.child({ notificationChannel: this.channel });
    this.onPayload = options.onPayload;
    this.notifier = new pg.Pool({
      connectionString,
      max: 1,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: NOTIFY_TIMEOUT_MS,
    });
    // An idle pooled connection that drops is replaced at the next notify.
    this.notifier.on('error', (error) =>
      this.logger.warn({ error: error.message }, 'notification sender connection lost'),
    );
    void this.listen();
  }

  notify(payload: string): Promise<void> {
    if (this.closing) return Promise.reject(new Error('the notification channel is closed'));
    // One after another: PostgreSQL delivers notifications in commit order.
    const sent = this.lastNotify.then(() =>
      this.notifier.query('select pg_notify($1, $2)', [this.channel, payload]),
    );
    this.lastNotify = sent.catch(() => {});
    return sent.then(() => {});
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      clearTimeout(this.retryTimer);
      await Promise.all([
        this.listener && settleWithin(this.listener.end(), CLOSE_TIMEOUT_MS),
        settleWithin(this.notifier.end(), CLOSE_TIMEOUT_MS),
      ]);
    })();
    return this.closing;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: 'hpa-notification-listener',
    });
    this.listener = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      this.reconnectLater(client, error);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', ({ channel, payload }) => {
      if (channel === this.channel && payload !== undefined) this.onPayload(payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (this.failedAttempts > 0) this.logger.info('listening for notifications again');
    this.failedAttempts = 0;
  }

  private reconnectLater(client: pg.Client, error: Error | undefined): void {
    void client.end().catch(() => {});
    if (this.closing) return;
    this.failedAttempts++;
    const delayMs = Math.min(FIRST_RETRY_MS * 2 ** (this.failedAttempts - 1), LONGEST_RETRY_MS);
    // Once per outage as a warning; every further failed attempt only at debug level. pg's
    // messages name the host and port at most, never the password.
    const details = { error: error?.message ?? 'connection ended', retryInMs: delayMs };
    if (this.failedAttempts === 1) {
      this.logger.warn(
        details,
        'notification listener lost; notifications until it is back are missed',
      );
    } else {
      this.logger.debug(details, 'notification listener still down');
    }
    this.retryTimer = setTimeout(() => void this.listen(), delayMs);
  }
}
