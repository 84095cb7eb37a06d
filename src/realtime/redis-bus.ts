import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ByteBudget } from '../byte-budget.js';
import { settleWithin } from '../deadlines.js';
import {
  RealtimeBusBusyError,
  RealtimeBusClosedError,
  type RealtimeBus,
  type RealtimeMessage,
} from './bus.js';
import { Subscribers } from './subscribers.js';
import { encodeMessage } from './wire.js';

/** Also bounds how long a publish waits in ioredis's queue while it reconnects. */
const COMMAND_TIMEOUT_MS = 2_000;
const LONGEST_RETRY_MS = 5_000;
const QUIT_TIMEOUT_MS = 1_000;

/** The Redis channel of a deployment: a hash of its database identity, never the identity itself. */
export function redisChannelFor(deploymentIdentity: string): string {
  const hash = createHash('sha256').update(deploymentIdentity).digest('hex').slice(0, 32);
  return `hpa:realtime:${hash}`;
}

/**
 * The bus over Redis pub/sub (REDIS_URL): one connection subscribed to the deployment's channel,
 * one that publishes. ioredis reconnects both and subscribes again by itself; what is published
 * while the subscriber is away does not reach it.
 */
export class RedisBus implements RealtimeBus {
  private readonly subscribers: Subscribers;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly backlog: ByteBudget;
  private closing: Promise<void> | undefined;

  constructor(
    url: string,
    private readonly channel: string,
    logger: Logger,
    backlogMaxBytes: number,
  ) {
    this.subscribers = new Subscribers(logger);
    this.backlog = new ByteBudget(backlogMaxBytes, logger, 'realtime messages (Redis)');
    const options = {
      commandTimeout: COMMAND_TIMEOUT_MS,
      retryStrategy: (attempt: number) => Math.min(attempt * 100, LONGEST_RETRY_MS),
    };
    this.publisher = watched(new Redis(url, options), logger.child({ redis: 'publisher' }));
    this.subscriber = watched(new Redis(url, options), logger.child({ redis: 'subscriber' }));
    this.subscriber.on('message', (from: string, text: string) => {
      if (from === channel) this.subscribers.deliverText(text);
    });
    this.subscriber.subscribe(channel).catch((error: Error) => {
      if (!this.closing) logger.warn({ error: error.message }, 'could not subscribe to Redis');
    });
  }

  async publish(message: RealtimeMessage): Promise<void> {
    if (this.closing) throw new RealtimeBusClosedError();
    const text = encodeMessage(message);
    const bytes = Buffer.byteLength(text);
    if (!this.backlog.take(bytes)) throw new RealtimeBusBusyError();
    try {
      // One connection sends commands in call order, so this process's messages keep it.
      await this.publisher.publish(this.channel, text);
    } finally {
      this.backlog.give(bytes);
    }
  }

  subscribe(listener: (message: RealtimeMessage) => void): () => void {
    return this.subscribers.add(listener);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.subscribers.clear();
      await Promise.all([quit(this.subscriber), quit(this.publisher)]);
    })();
    return this.closing;
  }
}

/**
 * QUIT lets replies still due arrive; a connection that is not up, or does not answer, is cut.
 * (Commands queued while it reconnects then fail by their timeout.)
 */
async function quit(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await settleWithin(redis.quit(), QUIT_TIMEOUT_MS);
  redis.disconnect();
}

/**
 * Logs a lost connection once, as a warning, and its return; without an `error` listener
 * ioredis would print every failed attempt. Its messages name the host and port, not the URL.
 */
function watched(redis: Redis, logger: Logger): Redis {
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn(
      { error: error.message },
      'Redis connection lost; messages until it is back are missed',
    );
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info('Redis connection back');
  });
  return redis;
}
