import type { Logger } from 'pino';

/**
 * Mail work that runs after the answer (so that the answer never depends on whether an account
 * exists, nor waits for the mail server), with shutdown able to wait for it.
 */
export class BackgroundMail {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly logger: Logger,
    /** What the work mails, for the log line of a failure: "a password-reset mail". */
    private readonly what: string,
  ) {}

  run(work: () => Promise<void>): void {
    const running = work()
      .catch((error: unknown) => this.logger.error({ err: error }, `could not send ${this.what}`))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /** Resolves once no work is left (shutdown waits for it). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
