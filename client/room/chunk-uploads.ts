import type { RoomEnvironment } from './environment.js';

/**
 * How long one chunk is sent again before the upload gives up: longer than the service takes
 * to free a chunk whose process died while saving it (RECORDING_CHUNK_CLAIM_SECONDS, 30 s).
 */
const CHUNK_RETRY_MS = 120000;

/**
 * Uploads chunks one after another, sending each again until the service has it. A chunk sent
 * again is safe: the service acknowledges the same bytes under a number it already has (204)
 * and asks to come back later (Retry-After) while another copy is being saved. What it refuses
 * for good (a 4xx without Retry-After: stopped, too large, a number it does not expect) cannot
 * be helped by sending it again, and nothing after it can be appended either, so the upload
 * ends there and says why.
 */
export class ChunkUploads {
  private sequence = 0;
  private queue: Promise<void> = Promise.resolve();
  private failed = false;

  constructor(
    private readonly env: RoomEnvironment,
    private readonly url: string,
    private readonly csrfToken: string,
    private readonly onFailure: (problem: string) => void,
  ) {}

  add(blob: Blob): void {
    const sequence = this.sequence++;
    this.queue = this.queue.then(() => this.upload(sequence, blob));
  }

  drained(): Promise<void> {
    return this.queue;
  }

  private async upload(sequence: number, blob: Blob): Promise<void> {
    if (this.failed) return;
    const giveUpAt = Date.now() + CHUNK_RETRY_MS;
    for (let attempt = 0; ; attempt += 1) {
      let wait = Math.min(500 * 2 ** attempt, 8000);
      let problem: string;
      try {
        const response = await this.env.fetch(`${this.url}/${sequence}`, {
          method: 'PUT',
          credentials: 'same-origin',
          headers: {
            'X-CSRF-Token': this.csrfToken,
            'Content-Type': 'application/octet-stream',
          },
          body: blob,
        });
        if (response.ok) return;
        const body = (await response.json().catch(() => ({}))) as { error?: string };
        problem = body.error ?? `the service answered ${response.status}`;
        const retryAfter = Number(response.headers.get('Retry-After'));
        if (retryAfter > 0) wait = retryAfter * 1000;
        else if (response.status < 500) return this.fail(problem);
      } catch (error) {
        problem = (error as Error).message;
      }
      if (Date.now() + wait > giveUpAt) return this.fail(problem);
      await new Promise<void>((resolve) => this.env.setTimeout(resolve, wait));
    }
  }

  private fail(problem: string): void {
    this.failed = true;
    this.onFailure(problem);
  }
}
