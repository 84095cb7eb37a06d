export interface RunningTask {
  /** Cancels the next run and waits for one in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs`, the first time one interval after start, on a timer that does
 * not keep the process alive. Runs never overlap: the next is scheduled when one ends. `task`
 * handles (logs) its own failures; one that throws anyway does not stop the schedule.
 */
export function runPeriodically(intervalMs: number, task: () => Promise<void>): RunningTask {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      running = task()
        .catch(() => {})
        .finally(() => {
          if (!stopped) schedule();
        });
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
