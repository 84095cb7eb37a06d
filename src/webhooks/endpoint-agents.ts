import type { Agent } from 'node:http';
import type { DestinationPolicy } from './ssrf/destination-policy.js';
import { createGuardedAgent } from './ssrf/guarded-agent.js';

/**
 * Makes the connection pool for one origin (`https://host:port`). This is where the SSRF guard
 * plugs in: its agent checks the address it actually dials (src/webhooks/ssrf/).
 */
export type AgentFactory = (origin: URL) => Agent;

/** Idle keep-alive connections are closed after this long. */
const IDLE_SOCKET_MS = 30_000;

/**
 * Keep-alive agents that dial only addresses `policy` allows (the SSRF guard checks the address
 * each connection actually dials, IP literals included). Endpoints of one origin share its agent,
 * so it must not queue one endpoint's requests behind another's: the worker caps requests per
 * endpoint, and an agent allows as many as the whole process sends (`sockets`), keeping
 * `idleSockets`.
 */
export function keepAliveAgents(
  sockets: number,
  idleSockets: number,
  policy: DestinationPolicy,
): AgentFactory {
  return (origin) =>
    createGuardedAgent({
      protocol: origin.protocol === 'https:' ? 'https:' : 'http:',
      allowPrivateNetworks: policy.allowPrivateNetworks,
      keepAlive: true,
      maxSockets: sockets,
      maxFreeSockets: idleSockets,
      timeout: IDLE_SOCKET_MS,
      scheduling: 'lifo',
    });
}

/**
 * A keep-alive agent per endpoint origin, so that successive deliveries to an endpoint reuse
 * their connections. At most `capacity` origins keep one: the least recently used is closed.
 */
export class EndpointAgents {
  private readonly agents = new Map<string, Agent>();

  constructor(
    private readonly create: AgentFactory,
    private readonly capacity: number,
  ) {}

  agentFor(url: URL): Agent {
    const origin = url.origin;
    const found = this.agents.get(origin);
    if (found) {
      // Most recently used last: Map iterates in insertion order.
      this.agents.delete(origin);
      this.agents.set(origin, found);
      return found;
    }
    const agent = this.create(new URL(origin));
    this.agents.set(origin, agent);
    if (this.agents.size > this.capacity) {
      const [oldest, evicted] = this.agents.entries().next().value as [string, Agent];
      this.agents.delete(oldest);
      // Requests in flight keep their sockets; those go when idle (IDLE_SOCKET_MS).
      closeIdleSockets(evicted);
    }
    return agent;
  }

  /** Closes every pooled connection (shutdown, after the last attempt). */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

function closeIdleSockets(agent: Agent): void {
  for (const sockets of Object.values(agent.freeSockets)) {
    for (const socket of sockets ?? []) socket.destroy();
  }
}
