/**
 * One read at a time of a value many callers want as it is now (the accounts epoch, say): every
 * caller gets the result of a read that began after it asked, so nothing it learns predates its
 * request, yet callers that ask together share one read instead of one each.
 */
export class FreshReads<T> {
  private running: Promise<T> | undefined;
  private next: Promise<T> | undefined;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.running) return this.start();
    // The running read began before this caller asked: it waits for the one after it.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<T> {
    const reading = this.read().finally(() => {
      if (this.running === reading) this.running = undefined;
    });
    this.running = reading;
    return reading;
  }
}
