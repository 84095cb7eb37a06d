import type { DatabaseConfig } from '../config.js';
import { dialectFor } from './dialects/index.js';
import type {
  NotificationChannel,
  NotificationChannelOptions,
} from './dialects/notification-channel.js';

export type {
  NotificationChannel,
  NotificationChannelOptions,
} from './dialects/notification-channel.js';

/**
 * How to open a channel of the database's own publish/subscribe between the processes that
 * share it; undefined when the engine has none (the embedded file).
 */
export function notificationChannelOpener(
  config: DatabaseConfig,
): ((options: NotificationChannelOptions) => NotificationChannel) | undefined {
  const dialect = dialectFor(config);
  if (!dialect.openNotificationChannel) return undefined;
  return (options) => dialect.openNotificationChannel!(config, options);
}

/** Names the deployment's data without credentials; equal in every process that shares it. */
export function deploymentIdentity(config: DatabaseConfig): string {
  return dialectFor(config).deploymentIdentity(config);
}
