const BAR_WIDTH = 30;

/** A progress line on stderr, rewritten in place (`\r`), with the rate and the time left. */
export class ProgressBar {
  private readonly started = performance.now();
  private done = 0;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly unit: string,
  ) {
    this.render();
  }

  advance(amount: number): void {
    this.done += amount;
    this.render();
  }

  finish(): void {
    this.render();
    process.stderr.write('\n');
  }

  private render(): void {
    const fraction = this.total ? Math.min(1, this.done / this.total) : 1;
    const filled = Math.round(fraction * BAR_WIDTH);
    const seconds = (performance.now() - this.started) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    const left = rate > 0 ? (this.total - this.done) / rate : Number.NaN;
    process.stderr.write(
      `\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ` +
        `${Math.floor(fraction * 100)
          .toString()
          .padStart(
            3,
          )}% ${this.done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')} ` +
        `${this.unit} ${Math.round(rate).toLocaleString('en-US')} ${this.unit}/s ` +
        `ETA ${formatDuration(left)}   `,
    );
  }
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  return minutes ? `${minutes}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}
