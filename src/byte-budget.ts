import type { Logger } from 'pino';

/**
 * Bytes this process holds in flight: messages handed on to another process and not yet seen
 * leave, or large request bodies being read and run (src/graphql/large-bodies.ts). Past
 * `maxBytes`, `take` refuses and the caller drops the message, or refuses the request, instead
 * of holding more without bound behind work that does not keep up. The first refusal of an
 * overload is logged as a warning, and the recovery once the backlog has drained to half.
 */
export class ByteBudget {
  private used = 0;
  private overloaded = false;
  private dropped = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly logger: Logger,
    /** What is dropped, for the log: "realtime messages", "broadcasts to worker 2", … */
    private readonly what: string,
  ) {}

  /** Reserves `bytes`; false (and nothing reserved) when that would pass the budget. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.maxBytes) {
      this.dropped++;
      if (!this.overloaded) {
        this.overloaded = true;
        this.logger.warn(
          { backlogBytes: this.used, maxBytes: this.maxBytes },
          `${this.what}: the backlog is full; dropping until it drains`,
        );
      }
      return false;
    }
    this.used += bytes;
    return true;
  }

  /** Gives back what `take` reserved, once it has left or failed. */
  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
    if (this.overloaded && this.used <= this.maxBytes / 2) {
      this.logger.warn(
        { dropped: this.dropped },
        `${this.what}: the backlog drained; messages dropped meanwhile`,
      );
      this.overloaded = false;
      this.dropped = 0;
    }
  }
}
