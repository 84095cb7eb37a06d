import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { deploymentIdentity, notificationChannelOpener } from '../db/notifications.js';
import type { RealtimeBus } from './bus.js';
import { DatabaseBus } from './database-bus.js';
import { LocalBus } from './local-bus.js';
import { RedisBus, redisChannelFor } from './redis-bus.js';

export type { RealtimeBus, RealtimeListener, RealtimeMessage } from './bus.js';

/**
 * The bus between the processes of this deployment (docs/realtime.md): Redis pub/sub when
 * REDIS_URL is set; else the database's own notifications where it has them (PostgreSQL);
 * else this process and its node:cluster siblings (the embedded SQLite file).
 */
export function createRealtimeBus(config: Config, logger: Logger): RealtimeBus {
  const busLogger = logger.child({ component: 'realtime' });
  if (config.redisUrl) {
    const channel = redisChannelFor(deploymentIdentity(config.database));
    return new RedisBus(config.redisUrl, channel, busLogger, config.realtimeBacklogMaxBytes);
  }
  const openChannel = notificationChannelOpener(config.database);
  if (openChannel) {
    return new DatabaseBus(
      (onPayload) => openChannel({ name: 'realtime', logger: busLogger, onPayload }),
      busLogger,
      config.realtimeBacklogMaxBytes,
    );
  }
  return new LocalBus(busLogger, config.realtimeBacklogMaxBytes);
}
