/**
 * What the primary and its workers say to each other over the cluster's IPC channel, besides
 * prom-client's own metric requests. Every message has a `type` starting with `hpa:`.
 */

/** A worker's message for every other live worker; the primary relays it unchanged. */
export interface BroadcastMessage {
  type: 'hpa:broadcast';
  channel: string;
  payload: unknown;
}

/** A worker asks for every worker's metrics, aggregated (its /metrics on the service port). */
export interface MetricsRequest {
  type: 'hpa:metrics-request';
  id: number;
}

/** The primary's answer: the aggregated text, or why there is none. */
export interface MetricsResponse {
  type: 'hpa:metrics-response';
  id: number;
  text?: string;
  error?: string;
}

export function isBroadcast(message: unknown): message is BroadcastMessage {
  return isOfType(message, 'hpa:broadcast') && typeof message.channel === 'string';
}

export function isMetricsRequest(message: unknown): message is MetricsRequest {
  return isOfType(message, 'hpa:metrics-request') && typeof message.id === 'number';
}

export function isMetricsResponse(message: unknown): message is MetricsResponse {
  return isOfType(message, 'hpa:metrics-response') && typeof message.id === 'number';
}

function isOfType(message: unknown, type: string): message is Record<string, unknown> {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as Record<string, unknown>).type === type
  );
}
