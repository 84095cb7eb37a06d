import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  createGuardedLookup,
  destinationRefusal,
  WebhookDestinationRefused,
  type DestinationGuardOptions,
} from './guarded-lookup.js';

export interface GuardedAgentOptions extends DestinationGuardOptions, https.AgentOptions {
  /** The endpoint URL's `protocol`: which of Node's agents to build. */
  protocol: 'http:' | 'https:';
}

type CreateConnection = (
  options: http.ClientRequestArgs,
  callback?: (error: Error | null, stream: Duplex) => void,
) => Duplex | null | undefined;

/**
 * An http or https Agent (keep-alive and the rest as in `options`) whose every connection is
 * checked against the SSRF rules at connect time (DESIGN §8): a host name is resolved by the
 * guarded lookup, which refuses the connection when any of its addresses is not public, and an
 * IP-literal host, for which Node never calls `lookup`, is checked before dialling. Unix
 * sockets are refused. A refused request emits `error` with a WebhookDestinationRefused
 * (`code` EWEBHOOKDESTINATION) and opens no connection.
 *
 * Every webhook request must go through such an agent (`http.request(url, { agent })` or
 * `https.request`); one agent per endpoint gives each its own keep-alive pool. A request's own
 * `lookup` option is overridden.
 */
export function createGuardedAgent(options: GuardedAgentOptions): http.Agent {
  const { protocol, allowPrivateNetworks, resolve, resolveTimeoutMs, ...agentOptions } = options;
  const guard = { allowPrivateNetworks, resolve, resolveTimeoutMs };
  const lookup = createGuardedLookup(guard);
  const agent =
    protocol === 'https:' ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const createConnection: CreateConnection = agent.createConnection.bind(agent);
  agent.createConnection = (connectionOptions, callback) => {
    const refusal = connectionRefusal(connectionOptions, guard);
    if (refusal === undefined) return createConnection({ ...connectionOptions, lookup }, callback);
    if (callback === undefined) throw refusal;
    callback(refusal, undefined as unknown as Duplex);
    return undefined;
  };
  return agent;
}

function connectionRefusal(
  options: http.ClientRequestArgs & { path?: string | null },
  guard: DestinationGuardOptions,
): WebhookDestinationRefused | undefined {
  // The agent turns `socketPath` into net's `path`; for a TCP connection `path` is null.
  const socketPath = options.socketPath ?? options.path;
  if (socketPath) return new WebhookDestinationRefused(socketPath, undefined, 'unix-socket');
  const host = options.host ?? 'localhost';
  return isIP(host) === 0 ? undefined : destinationRefusal(host, host, guard);
}
