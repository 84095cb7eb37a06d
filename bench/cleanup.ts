type Step = () => Promise<unknown>;

/**
 * What has to be undone at the end (processes, connections, the database), in reverse order,
 * whether the run finishes, fails or is interrupted. Each step runs at most once.
 */
export class Cleanup {
  private readonly steps: Step[] = [];

  add(step: Step): void {
    this.steps.push(step);
  }

  /** Runs one step now (and not again at the end). */
  async runOne(step: Step): Promise<void> {
    const index = this.steps.indexOf(step);
    if (index >= 0) this.steps.splice(index, 1);
    await step();
  }

  async run(): Promise<void> {
    while (this.steps.length) {
      const step = this.steps.pop()!;
      try {
        await step();
      } catch (error) {
        console.error(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
