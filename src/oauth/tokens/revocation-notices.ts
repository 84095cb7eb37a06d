import type { Logger } from 'pino';
import type { RealtimeBus } from '../../realtime/compose.js';

/** The realtime topic that says "access tokens were revoked: forget what you verified". */
export const ACCESS_TOKENS_REVOKED_TOPIC = 'oauth.access-tokens-revoked';

/**
 * Tells every process of the deployment that access tokens were revoked, over the deployment's
 * realtime bus (Redis, PostgreSQL notifications, or the node:cluster siblings of an SQLite
 * deployment), so that each drops its verified-token cache at once. The message names no token:
 * revocations are rare and a cache refills in one verification per token.
 *
 * Delivery is at most once, and a process without a bus (the CLI on SQLite) hears nothing: the
 * cache's lifetime (TOKEN_VERIFICATION_CACHE_MS, at most 10 s, 2 s by default) bounds how long
 * a lost notice leaves a revoked token working in another process.
 */
export class RevocationNotices {
  constructor(
    private readonly bus: RealtimeBus | undefined,
    private readonly logger: Logger,
  ) {}

  /** Calls `forget` whenever any process (this one included) announces a revocation. */
  subscribe(forget: () => void): () => void {
    if (!this.bus) return () => {};
    return this.bus.subscribe((message) => {
      if (message.topic === ACCESS_TOKENS_REVOKED_TOPIC) forget();
    });
  }

  /** Resolves once the notice has left this process (or failed, which is logged: never throws). */
  async announce(): Promise<void> {
    if (!this.bus) return;
    try {
      await this.bus.publish({ topic: ACCESS_TOKENS_REVOKED_TOPIC, body: {} });
    } catch (error) {
      this.logger.warn(
        { err: error },
        'could not announce a token revocation to other processes; their verified-token caches expire on their own',
      );
    }
  }
}
