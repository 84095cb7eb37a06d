import { collectDefaultMetrics, register } from 'prom-client';

/** Where a /metrics answer comes from: this process, or every cluster worker aggregated. */
export interface MetricsSource {
  readonly contentType: string;
  read(): Promise<string>;
}

/** This process's metrics (prom-client's global registry). */
export const processMetrics: MetricsSource = {
  contentType: register.contentType,
  read: () => register.metrics(),
};

let defaultMetricsOn = false;

/**
 * prom-client's default series (event-loop lag, heap, RSS, GC, CPU), under their usual names.
 * Once per process: each call would start another event-loop monitor.
 */
export function collectProcessMetrics(): void {
  if (defaultMetricsOn) return;
  defaultMetricsOn = true;
  collectDefaultMetrics({ register });
}
