export interface RunningTask {
  /** Cancels the next run and waits for one in progress (which `StopSignal` tells to end). */
  stop(): Promise<void>;
}

/** Says whether the task's schedule was stopped, so that a long run can end between steps. */
export interface StopSignal {
  readonly stopped: boolean;
}

/** The signal of a run no schedule stops (a run asked for directly). */
export const NEVER_STOPPED: StopSignal = { stopped: false };

/**
 * Runs `task` every `intervalMs`, the first time one interval after start, on a timer that does
 * not keep the process alive. Runs never overlap: the next is scheduled when one ends. A run
 * that fails goes to `failed` (which logs it) and the schedule goes on.
 */
export function runPeriodically(
  intervalMs: number,
  task: (signal: StopSignal) => Promise<void>,
  failed: (error: unknown) => void,
): RunningTask {
  const signal = { stopped: false };
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      running = task(signal)
        .catch((error: unknown) => {
          try {
            failed(error);
          } catch {
            // A logger that throws must not end the schedule.
          }
        })
        .finally(() => {
          if (!signal.stopped) schedule();
        });
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      signal.stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
